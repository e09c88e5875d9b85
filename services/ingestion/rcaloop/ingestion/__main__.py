"""``python -m rcaloop.ingestion``: run the ingestion service alone."""

from rcaloop.ingestion.app import main

if __name__ == "__main__":
    main()
