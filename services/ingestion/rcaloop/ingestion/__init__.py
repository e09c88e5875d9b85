"""Ingestion service: ``rca.results`` → ``rca.ingested``."""
