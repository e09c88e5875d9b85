"""``python -m rcaloop.gate``: run the gate service alone."""

from rcaloop.gate.app import main

if __name__ == "__main__":
    main()
