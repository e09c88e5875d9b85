"""Annotation service: ``rca.evaluated`` → review tasks; stores annotations and evaluations."""
