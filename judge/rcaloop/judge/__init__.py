"""rcaloop's judge: reads an RCA output once by its structure, then judges the reading with a registry of rules."""
