//! `crosscap serve`: the web app.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use crosscap_server::{Config, Limits, default_data_dir, serve_blocking};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default; port 0 picks a free port).
    #[arg(long, default_value = "127.0.0.1:7878")]
    pub addr: SocketAddr,
    /// Where saved games are kept (default: the platform's data directory).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let data_dir = args.data_dir.unwrap_or_else(default_data_dir);
    let config = Config {
        addr: args.addr,
        data_dir: data_dir.clone(),
        limits: Limits::default(),
    };
    serve_blocking(config, |server| {
        // Written without `println!`: a closed stdout must not stop the server.
        let addr = server.local_addr();
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "Crosscap is serving on http://{addr}/");
        let _ = writeln!(
            out,
            "saved games: {} ({} unfinished resumed); stop with Ctrl-C",
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
