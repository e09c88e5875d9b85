"""One reading of an output: its places and items, each with the role the structure gives it, the
steps and commands in each item with their guards, then (``rcaloop.judge.reading.claims``) its
claims and the evidence tied to them. Rules judge this reading, never raw text."""
