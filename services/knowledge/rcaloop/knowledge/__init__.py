"""Knowledge service: verified reviews → knowledge packages (TypeDB, or the embedded store)."""
