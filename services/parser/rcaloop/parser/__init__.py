"""Parser service: ``rca.ingested`` → ``rca.parsed``."""
