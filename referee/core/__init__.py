"""The pure core: no I/O, no third-party imports except where a module says so."""
