"""``python -m rcaloop.knowledge``: run the knowledge service alone."""

from rcaloop.knowledge.app import main

if __name__ == "__main__":
    main()
