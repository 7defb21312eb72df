"""`ofc-bot` and `python -m bot`: read the settings, then run the Discord bot
(`ofc-bot migrate-db`: copy the database into another; `ofc-bot backup`: copy the SQLite file
while the bot runs; bot/cli/dbtools.py)."""

import sys
from collections.abc import Sequence

from bot.config import ENV_FILE, NO_TOKEN_HELP, ConfigError, load_settings, named_env_file_missing
from bot.refusal import error_line, named
from bot.sharding import ShardPlan, ShardPlanError

PROGRAM = "ofc-bot"


def main(argv: Sequence[str] | None = None) -> int:
    from bot.cli.dbtools import add_backup_parser, add_migrate_parser
    from bot.cli.ofc import OneLineParser, parse_args

    parser = OneLineParser(
        prog=PROGRAM, description="Open-Face Chinese Poker Pineapple for Discord.")
    parser.add_argument(
        "--sync", action="store_true",
        help="publish the slash commands to every server (needed once, and after the commands "
             "change; global commands can take up to an hour to appear)")
    parser.add_argument(
        "--export-commands", type=named, metavar="FILE",
        help="write the slash commands as they would be synced to Discord (JSON) to FILE "
             "('-': standard output) and exit, without connecting")
    parser.add_argument(
        "--update-catalogues", action="store_true",
        help="for translators: collect every text to translate into bot/i18n/po/messages.pot, "
             "merge it into each language's .po file, print what each lacks, and exit")
    parser.add_argument(
        "--shard-count", type=int, metavar="N",
        help="run as sharded processes: the total number of gateway shards of all processes "
             "(every process the same N; docs/admins/sharding.md)")
    parser.add_argument(
        "--shards", metavar="A-B",
        help="the shard ids this process runs, e.g. 0-3 or 0,2 (default: all N); each shard "
             "has one owner, held by a lease in the database")
    parser.add_argument("--env-file", type=named, default=ENV_FILE,
                        help=f"settings file (default: {ENV_FILE}, if there)")
    commands = parser.add_subparsers(dest="command", metavar="{backup,migrate-db}",
                                     parser_class=OneLineParser)
    add_backup_parser(commands)
    add_migrate_parser(commands)
    args = parse_args(parser, argv)
    missing = named_env_file_missing(args.env_file)
    if missing is not None:
        print(error_line(PROGRAM, missing), file=sys.stderr)
        return 2
    if args.command is not None:
        return int(args.run(args))
    try:
        shards = ShardPlan.parse(args.shard_count, args.shards)
    except ShardPlanError as error:
        print(error_line(PROGRAM, str(error)), file=sys.stderr)
        return 2
    if args.export_commands is not None or args.update_catalogues:
        import asyncio

        from bot.app import export_commands, update_catalogues

        return asyncio.run(update_catalogues() if args.update_catalogues
                           else export_commands(args.export_commands))
    try:
        settings = load_settings(dotenv=args.env_file)
    except ConfigError as error:
        print(error_line(PROGRAM, str(error)), file=sys.stderr)
        return 2
    if not settings.token:
        print(NO_TOKEN_HELP, file=sys.stderr, end="")
        return 2
    from bot.app import run  # discord.py is imported only when the bot really starts

    return run(settings, sync_global=args.sync, shards=shards)


if __name__ == "__main__":
    sys.exit(main())
