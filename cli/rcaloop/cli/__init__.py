"""The ``rcaloop`` command line: runs the services and exposes every core offline."""
