"""The campaign web page: served by the bot's own process (aiohttp), read through the services, worded by bot/ui.

``server.py`` (the app, its headers and error pages), ``sessions.py`` (the login's rate limit; the /web links and
sessions themselves are rows in the database, bot/services/web_sessions.py), ``viewer.py`` (a session as the
services' Actor), ``pages.py`` (each page), ``markdown.py`` and ``embeds.py`` (the bot's own Discord wording as
safe HTML), ``templates/`` and ``static/``.
"""
