"""The application layer: one way through from a command to the rules and back.

A command parses its arguments, calls one function here, and prints what it returns; nothing
here prints or reads the terminal: what an attack shows as it goes, and who answers it, the
command hands over explicitly (``stack.Seat``, callbacks).

* ``plan``: planning an attack, the one prelude of ``attack``, ``epic-shoot``, ``run``,
  ``attack --resume`` and ``odds`` (ruleset, options, declaration, the game's entry, seed).
* ``stack``: the ports one attack asks through, composed in one place, each layer named.
* ``resolve``: the one call of a resolver (``Attack``), for the table, ``run``, odds
  probes and replays.
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
ports), ``game`` (the game file), this package, then ``api`` and ``cli`` (neither imports
the other), and the console script (``start``, ``__main__``) and ``reference`` on top. Imports
point down only; ``docs/architecture.md`` draws the whole order.

This package's modules are imported when a command needs them; this file imports nothing.

Glossary: one meaning per name.

* **record**: the ``--record`` file, an attack's answers written after each answer, which
  ``run`` replays and ``attack --resume`` continues (``play.record``). The odds of one roll
  are a ``RollOdds`` (in order: ``rolls``); what a game file keeps of an attack is its log
  entry (``game.entry``); a port that keeps the answers given is a ``ScriptingPort``.
* **entry**: a numbered entry of a game file's log (``game.LogEntry``, its result as JSON
  ``LogEntry.result``; the one about to be played: ``game.entry.GamePlay``). The console
  script is ``referee.start``. A compact line typed at the board is a **line**: its grammar
  is ``rulesets/<game>/line.py`` (and ``assault_line``, ``fight_line``, ``side_line``), its
  question a ``LineQuestion`` (``TargetQuestion``, ``UnitsQuestion``...), its words
  ``rulesets/lines.py``. Still named "entry": the ids of those lines' messages
  (``epic.entry.*``, ``fow.fight_entry.*``...), which the catalogues and their tests key on.
* **table**: rows and columns shown to the player (``core.table.Table``): a rule table
  looked up, a result's table. Where a player sits and answers is a **seat**
  (``stack.Seat``, ``cli/seat.py``); in prose and transcript names "at the table" still
  means playing at the board. SQLite's and TOML's tables are so called only in prose about
  those formats.
"""
