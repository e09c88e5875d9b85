"""Harness service: ``rca.parsed`` → ``rca.evaluated``."""
