"""referee: a table-side referee for tabletop wargames.

The package is layered so that the rules never depend on the edges; imports point down only
(``pyproject.toml``, ``[tool.importlinter]``, checked by the tests):

* ``referee.start``, ``referee.cli``  the console script and its thin Typer commands.
* ``referee.api``        the Python API for programs and tests (the application layer's names).
* ``referee.play``       the application layer: planning, playing, probing, replaying.
* ``referee.game``       game files: state, log, seed, history, reports.
* ``referee.frontends``  ports that answer questions: interactive, scripted, rewind, odds.
* ``referee.render``     turns result values into rich tables, plain text or JSON.
* ``referee.rulesets``   one pure resolver per game; asks questions through a port.
* ``referee.odds``       exact distributions the rulesets' odds are built from.
* ``referee.script``, ``files``, ``catalog``, ``data``, ``tomlcache``, ``context``,
  ``help_chrome``, ``exit_codes``: what every layer above reads.
* ``referee.core``       values every ruleset shares: questions, dice, step logs, options, errors.
"""

__version__ = "0.2.0"
