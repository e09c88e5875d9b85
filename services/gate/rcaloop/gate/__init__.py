"""Gate service: offline evaluation, release gate and rollout stages."""
