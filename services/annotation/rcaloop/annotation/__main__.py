"""``python -m rcaloop.annotation``: run the annotation service alone."""

from rcaloop.annotation.app import main

if __name__ == "__main__":
    main()
