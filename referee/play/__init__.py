"""The application layer: one way through from a command to the rules and back.

A command parses its arguments, calls one function here, and prints what it returns; nothing
here prints or reads the terminal: what an attack shows as it goes, and who answers it, the
command hands over explicitly (``stack.Seat``, callbacks).

* ``plan``: planning an attack, the one prelude of ``attack``, ``epic-shoot``, ``run``,
  ``attack --resume`` and ``odds`` (ruleset, options, declaration, the game's entry, seed).
* ``stack``: the ports one attack asks through, composed in one place, each layer named.
* ``resolve``: the one call of a resolver, for the table, ``run``, odds probes and replays.
* ``attack``: playing an attack (the game file read and written around it, ``--record``).
* ``record``: the ``--record`` file, written after every answer.
* ``odds``: the odds without rolling (``referee odds``) and the what-if before a choice.
* ``phase``, ``markers``: Lock 'n Load's operations phase and World at War's marker phase,
  kept in a game file.
* ``replay``, ``verify``: a game file's entries resolved again from the revealed seed.
* ``lookup``: the rule tables and the options of a ruleset.

Layers (``pyproject.toml``, ``[tool.importlinter]``; a test checks them): ``core`` at the
bottom, then the modules every layer reads (catalogue, files, scripts), ``odds`` (the exact
distributions the rulesets' odds are built from), ``rulesets``, ``render``, ``frontends`` (the
ports), ``game`` (the game file), this package, then ``api`` and ``cli`` side by side, and
``entry`` on top. Imports point down only.

This package's modules are imported when a command needs them; this file imports nothing.
"""
