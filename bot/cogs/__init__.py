"""One extension per feature; ``EXTENSIONS`` is what the bot loads."""

EXTENSIONS: tuple[str, ...] = (
    "bot.cogs.setup",
    "bot.cogs.packs",
    "bot.cogs.characters",
    "bot.cogs.encounters",
    "bot.cogs.combat",
    "bot.cogs.odds",
    "bot.cogs.injuries",
    "bot.cogs.records",
    "bot.cogs.help",
    "bot.cogs.web",
)
