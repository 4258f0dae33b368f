"""Ports: the front ends that answer a resolver's questions."""
