//! The Crosscap web app: an axum server holding every game behind the engine's object-safe
//! [`Match`](crosscap_engine::session::Match), a JSON API, saved games in SQLite and the
//! page (HTML, CSS and JavaScript modules compiled in).
//!
//! * [`registry`]: game name -> constructor, with what the page offers for each game;
//! * [`app`]: games in play, computer players, limits;
//! * [`store`]: the SQLite database (WAL, a move is committed before it is answered);
//! * [`record`]: game records (export, import, what the database keeps);
//! * [`api`]: the routes; `web`: the page's files.

pub mod api;
pub mod app;
pub mod nim;
pub mod record;
pub mod registry;
pub mod store;
mod web;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use app::{App, Limits};
pub use registry::Registry;
pub use store::Store;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("cannot create the data directory {path}: {source}")]
    DataDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("{0}")]
    Resume(String),
    #[error("the server stopped: {0}")]
    Io(#[from] std::io::Error),
}

/// Where to listen and where to keep the games.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub data_dir: PathBuf,
    pub limits: Limits,
}

/// The platform's data directory for Crosscap (e.g. `~/.local/share/crosscap`).
pub fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(|| PathBuf::from("."))
        .join("crosscap")
}

/// Opens the database in `dir` (creating both if needed) and builds the app.
pub fn open_app(dir: &Path, limits: Limits) -> Result<Arc<App>, ServerError> {
    std::fs::create_dir_all(dir).map_err(|source| ServerError::DataDir {
        path: dir.to_path_buf(),
        source,
    })?;
    let store = Store::open(dir)?;
    Ok(App::new(
        Registry::standard(),
        store,
        limits,
        Some(dir.join("boards")),
    ))
}

/// A bound server, ready to run.
pub struct Server {
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    resumed: usize,
}

impl Server {
    /// Opens the data directory, resumes unfinished games and binds the address (port 0
    /// picks a free port). Must be called inside a tokio runtime.
    pub async fn bind(config: &Config) -> Result<Server, ServerError> {
        let app = open_app(&config.data_dir, config.limits.clone())?;
        let resumed = app.resume().map_err(|e| ServerError::Resume(e.message))?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|source| ServerError::Bind {
                addr: config.addr,
                source,
            })?;
        Ok(Server {
            listener,
            app,
            resumed,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// How many unfinished games were resumed from the database.
    pub fn resumed(&self) -> usize {
        self.resumed
    }

    /// Serves until Ctrl-C (every move is already committed, so stopping loses nothing).
    pub async fn run(self) -> Result<(), ServerError> {
        axum::serve(self.listener, api::router(self.app))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    }
}

/// Starts a runtime, binds, tells `ready` the address, and serves until Ctrl-C.
pub fn serve_blocking(config: Config, ready: impl FnOnce(&Server)) -> Result<(), ServerError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = Server::bind(&config).await?;
        ready(&server);
        server.run().await
    })
}
