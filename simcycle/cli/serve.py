import click

from .options import at_opt, model_opt, scenario_arg, seed_opt


@click.command()
@scenario_arg
@at_opt
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; only a loopback address unless --public.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(0, 65535),
              help="Port (0: any free port; the address is printed).")
@click.option("--public", is_flag=True,
              help="Allow a non-loopback --host (anyone who reaches it sees the page).")
@click.option("--watch", "watch", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.pgn|FILE.trf",
              help="The broadcast's PGN or TRF file: re-read when it changes (round robins).")
@click.option("--sims", default=20_000, show_default=True, type=click.IntRange(1000, 10**8),
              help="Simulations per answer (every answer with the same seed: common random "
                   "numbers).")
@click.option("--history-sims", default=2_000, show_default=True,
              type=click.IntRange(100, 10**7), help="Simulations per checkpoint of the chart.")
@click.option("--swing-sims", default=2_000, show_default=True,
              type=click.IntRange(1000, 10**7), help="Simulations per result of the swing.")
@seed_opt
@model_opt
def serve(scenario, at, host, port, public, watch, sims, history_sims, swing_sims, seed,
          model_file):
    """A local page of the event: standings, odds with standard errors, the next round's
    swing, whocan, the history chart; click a result still to play and the odds follow."""
    import ipaddress
    import socket
    import sys

    from ..errors import ScenarioError

    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not loopback and not public:
        raise ScenarioError("not a loopback address: the page would be open to the network; "
                            "add --public to mean it", key="--host", value=host)
    try:
        import uvicorn

        from ..serve import Live, make_app
    except ImportError as e:
        raise ScenarioError(f"serve needs the serve extra (pip install 'simcycle[serve]'): "
                            f"{e.name} is missing", key="serve") from None
    live = Live(scenario, at=at, model=model_file, sims=sims, seed=seed,
                history_sims=history_sims, swing_sims=swing_sims, watch=watch)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        raise ScenarioError(f"cannot listen there: {e.strerror}", key="--port",
                            value=port) from None
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    from . import stream_output
    stream_output()     # the page's address now, and whatever the server says later
    click.echo(f"simcycle: serving {live.event.name} at http://{shown}:{bound}/ "
               "(Ctrl-C stops)")
    sys.stdout.flush()
    server = uvicorn.Server(uvicorn.Config(make_app(live), log_level="warning"))
    server.run(sockets=[sock])
