"""rcaloop's shared runtime: what every service needs and none of them owns."""
