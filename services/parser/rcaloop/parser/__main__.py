"""``python -m rcaloop.parser``: run the parser service alone."""

from rcaloop.parser.app import main

if __name__ == "__main__":
    main()
