//! The Crosscap web app: an axum server holding every game behind the engine's object-safe
//! [`Match`](crosscap_engine::session::Match), a JSON API, saved games in SQLite and the
//! page (HTML, CSS and JavaScript modules compiled in). It serves the games of the
//! [`Catalog`] it is given and names none of them.
//!
//! * [`app`]: games in play, computer players; [`limits`]: the server's bounds;
//! * [`resident`]: the games kept in memory; [`starts`]: starting positions shared per board;
//! * [`store`]: the SQLite database (WAL, a move is committed before it is answered);
//! * [`record`]: game records (export, import, what the database keeps);
//! * [`api`]: the routes and the error answer; [`guard`]: Host check, security headers, rate limits, request
//!   log; `web`: the page's files.

pub mod api;
pub mod app;
mod connections;
pub mod guard;
pub mod limits;
pub mod record;
pub mod resident;
pub mod starts;
pub mod store;
mod web;

use std::fs::File;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crosscap_engine::catalog::Catalog;

pub use app::App;
pub use guard::HostPolicy;
pub use limits::Limits;
pub use store::Store;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("cannot create the data directory {path}: {source}")]
    DataDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("another Crosscap server is using the data directory {}", path.display())]
    Locked { path: PathBuf },
    #[error("cannot lock the data directory {path}: {source}")]
    Lock {
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

/// Where to listen, which Host names to answer and where to keep the games.
#[derive(Clone, Debug)]
pub struct Config {
    /// The games served.
    pub catalog: Catalog,
    pub addr: SocketAddr,
    /// Host names answered besides loopback ones (see [`HostPolicy::for_addr`]).
    pub allowed_hosts: Vec<String>,
    pub data_dir: PathBuf,
    pub limits: Limits,
}

/// The platform's data directory for Crosscap (e.g. `~/.local/share/crosscap`).
pub fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(|| PathBuf::from("."))
        .join("crosscap")
}

/// The data directory held by one server: an exclusive lock on `crosscap.lock` in it,
/// released when the server's process ends (however it ends).
pub struct DataDirLock {
    _file: fd_lock::RwLock<File>,
}

impl DataDirLock {
    /// Creates the directory if needed and locks it, or says that another server has it.
    pub fn acquire(dir: &Path) -> Result<DataDirLock, ServerError> {
        std::fs::create_dir_all(dir).map_err(|source| ServerError::DataDir {
            path: dir.to_path_buf(),
            source,
        })?;
        let lock_error = |source| ServerError::Lock {
            path: dir.to_path_buf(),
            source,
        };
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join("crosscap.lock"))
            .map_err(lock_error)?;
        let mut lock = fd_lock::RwLock::new(file);
        match lock.try_write() {
            // The lock lasts as long as the file is open: the guard's release is skipped.
            Ok(guard) => std::mem::forget(guard),
            Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                return Err(ServerError::Locked {
                    path: dir.to_path_buf(),
                });
            }
            Err(err) => return Err(lock_error(err)),
        }
        Ok(DataDirLock { _file: lock })
    }
}

/// Locks the data directory `dir` (creating it if needed), opens its database and
/// builds the app.
pub fn open_app(
    catalog: Catalog,
    dir: &Path,
    limits: Limits,
) -> Result<(Arc<App>, DataDirLock), ServerError> {
    let lock = DataDirLock::acquire(dir)?;
    let store = Store::open(dir)?;
    Ok((App::new(catalog, store, limits), lock))
}

/// A bound server, ready to run.
pub struct Server {
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    hosts: HostPolicy,
    resumed: usize,
    _lock: DataDirLock,
}

impl Server {
    /// Locks the data directory, queues the unfinished computer games and binds the
    /// address (port 0 picks a free port). Must be called inside a tokio runtime.
    pub async fn bind(config: &Config) -> Result<Server, ServerError> {
        let (app, lock) = open_app(
            config.catalog.clone(),
            &config.data_dir,
            config.limits.clone(),
        )?;
        let resumed = app.resume().map_err(|e| ServerError::Resume(e.message))?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|source| ServerError::Bind {
                addr: config.addr,
                source,
            })?;
        let hosts = HostPolicy::for_addr(config.addr, &config.allowed_hosts);
        Ok(Server {
            listener,
            app,
            hosts,
            resumed,
            _lock: lock,
        })
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .expect("a bound listener has an address")
    }

    /// How many unfinished games with a computer seat were queued to resume.
    pub fn resumed(&self) -> usize {
        self.resumed
    }

    /// Serves until Ctrl-C or SIGTERM, then stops every search (every move is already
    /// committed, so stopping loses nothing).
    pub async fn run(self) {
        api::serve(self.listener, self.app, self.hosts, stop_signal()).await;
    }
}

/// Resolves on Ctrl-C, or SIGTERM where there is one.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Starts a runtime, binds, tells `ready` the address, and serves until Ctrl-C.
pub fn serve_blocking(config: Config, ready: impl FnOnce(&Server)) -> Result<(), ServerError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = Server::bind(&config).await?;
        ready(&server);
        server.run().await;
        Ok(())
    })
}
