"""web: the Flask layer; HTTP to actions, state to JSON and Server-Sent Events.

``create_app(config, session=...)`` builds the app; ``make_server(app, host, port)``
wraps it in the production waitress server sized for a table of phones.
"""

from web.app import create_app, get_companion
from web.server import Server, make_server

__all__ = ["Server", "create_app", "get_companion", "make_server"]
