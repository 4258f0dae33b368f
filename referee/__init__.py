"""referee: a table-side referee for tabletop wargames.

The package is layered so that the rules never depend on the edges:

* ``referee.core``       values every ruleset shares: questions, dice, step logs, options, errors.
* ``referee.rulesets``   one pure resolver per game; asks questions through a port.
* ``referee.frontends``  ports that answer questions: interactive, scripted, recorded, tests.
* ``referee.render``     turns result values into rich tables, plain text or JSON.
* ``referee.cli``        thin Typer commands over all of the above.
"""

__version__ = "0.1.0"
