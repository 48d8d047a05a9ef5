"""The offline playground: the bot and a loopback Discord in one process, driven by typed lines."""
