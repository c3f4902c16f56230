//! `crosscap serve`: the web app.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use crosscap_server::{Config, Limits, default_data_dir, serve_blocking};

const MIB: usize = 1024 * 1024;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default; port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:7878")]
    pub addr: SocketAddr,
    /// Where saved games are kept (default: the platform's data directory).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// A Host name the server answers, e.g. `games.example.org` or `192.168.1.20:8080`
    /// (repeatable). Bound to loopback, loopback names are answered too; bound elsewhere
    /// without this flag, every name is.
    #[arg(long = "allowed-host", value_name = "HOST")]
    pub allowed_hosts: Vec<String>,
    /// Longest a computer move may think, in seconds (1 to 3600).
    #[arg(long, value_name = "SECONDS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub max_think: u64,
    /// Most memory one search (a computer move or a hint) may hold, in MiB (1 to 65536).
    #[arg(long, value_name = "MIB", default_value_t = 256,
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub max_search_mib: u64,
    /// Estimated memory of the games kept in memory, in MiB (1 to 65536); idle games
    /// beyond it are reloaded from the database when asked for.
    #[arg(long, value_name = "MIB", default_value_t = 256,
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub max_games_mib: u64,
    /// Connections one client address may hold open at once (1 to 100000); raise it
    /// behind a reverse proxy, through which every player comes from one address.
    #[arg(long, value_name = "N", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_connections_per_address: u64,
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    // One line per request and every error on stderr; stdout keeps the address lines.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing_subscriber::filter::LevelFilter::INFO)
        .with_target(false)
        .with_ansi(false)
        .try_init();
    let data_dir = args.data_dir.unwrap_or_else(default_data_dir);
    let mib = |n: u64| usize::try_from(n).map_or(usize::MAX, |n| n.saturating_mul(MIB));
    let config = Config {
        catalog: crosscap_catalog::standard(),
        addr: args.addr,
        allowed_hosts: args.allowed_hosts,
        data_dir: data_dir.clone(),
        limits: Limits {
            max_think: Duration::from_secs(args.max_think),
            max_search_bytes: mib(args.max_search_mib),
            max_games_bytes: mib(args.max_games_mib),
            max_connections_per_address: usize::try_from(args.max_connections_per_address)
                .unwrap_or(usize::MAX),
            ..Limits::default()
        },
    };
    serve_blocking(config, |server| {
        // Written without `println!`: a closed stdout must not stop the server.
        let addr = server.local_addr();
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "Crosscap is serving on http://{addr}/");
        let _ = writeln!(
            out,
            "saved games: {} ({} unfinished with a computer player resumed); stop with Ctrl-C",
            data_dir.display(),
            server.resumed()
        );
        if !addr.ip().is_loopback() {
            let _ = writeln!(out, "note: {addr} is reachable from other machines");
        }
        let _ = out.flush();
    })
    .with_context(|| format!("cannot serve on {}", args.addr))
}
