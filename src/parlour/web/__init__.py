"""``parlour serve``: every game in a browser, through the same Referee and Dealer.

``app``: the starlette application (page, JSON API, websockets).  ``hall``: the tables
of one server and how a game is made.  ``tables``: one game each, its seats and events.
``protocol``: the messages a browser may send.  ``analysis``: the engine's value of each
position of a finished game.  ``views``: what a browser is shown (the
one place that decides what leaves the server).  ``records``: finished games in SQLite.
``static``: the page (plain HTML, CSS and JavaScript; SVG boards).
"""
