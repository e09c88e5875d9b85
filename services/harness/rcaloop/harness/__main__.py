"""``python -m rcaloop.harness``: run the harness service alone."""

from rcaloop.harness.app import main

if __name__ == "__main__":
    main()
