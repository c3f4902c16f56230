//! Accepting connections within bounds: how many are open at once, how many from one
//! client address, how long one may take to send a request's head or sit idle, and how
//! long an answer may wait for the client to read it. A client that opens connections
//! and sends nothing (or a byte at a time), or asks and never reads, would otherwise hold
//! the server's open files and the answers' buffers until none were left for anyone.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_io_timeout::TimeoutStream;
use tower::ServiceExt;

use crate::limits::Limits;

/// How long the server waits, once told to stop, for the requests under way to finish.
const DRAIN_WAIT: Duration = Duration::from_secs(10);

/// The smallest read buffer hyper accepts.
const MIN_HEAD_BUFFER: usize = 8192;

/// The connections open now, in all and by client address.
struct Admission {
    open: Mutex<(usize, HashMap<IpAddr, usize>)>,
    max_total: usize,
    max_per_address: usize,
}

/// A connection let in: counted until it is dropped.
struct Admitted {
    admission: Arc<Admission>,
    address: IpAddr,
}

impl Admission {
    /// Counts a connection from `address` in, or answers `None` when it is one too many.
    fn admit(self: &Arc<Self>, address: IpAddr) -> Option<Admitted> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let (total, by_address) = &mut *open;
        let mine = by_address.entry(address).or_insert(0);
        if *total >= self.max_total || *mine >= self.max_per_address {
            if *mine == 0 {
                by_address.remove(&address);
            }
            return None;
        }
        *mine += 1;
        *total += 1;
        Some(Admitted {
            admission: Arc::clone(self),
            address,
        })
    }
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = self
            .admission
            .open
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let (total, by_address) = &mut *open;
        *total -= 1;
        if let Some(mine) = by_address.get_mut(&self.address) {
            *mine -= 1;
            if *mine == 0 {
                by_address.remove(&self.address);
            }
        }
    }
}

/// Serves `router` (HTTP/1.1) on `listener` within the connection limits of `limits` until
/// `shutdown` resolves; then accepts nothing more, lets the requests under way finish
/// (for at most [`DRAIN_WAIT`]) and returns. Each request carries its client's address
/// as [`ConnectInfo`], which the rate limits read.
pub async fn serve_connections(
    listener: TcpListener,
    router: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()>,
) {
    let admission = Arc::new(Admission {
        open: Mutex::new((0, HashMap::new())),
        max_total: limits.max_connections,
        max_per_address: limits.max_connections_per_address,
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    // hyper's own bound on a request head, past which it answers an empty 431 and closes
    // the connection, is set well above the one `guard::head_within` answers in JSON;
    // it also bounds what each connection's read buffer holds (hyper's default, about
    // 400 KiB, is 400 MB over a thousand connections).
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.request_wait)
        .max_buf_size((4 * limits.max_head_bytes).max(MIN_HEAD_BUFFER));
    // Every connection holds a receiver of `stop`: its sender says when to stop, and once
    // every receiver is dropped, every connection has ended.
    let (stop, stopped) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, address) = match accepted {
            Ok(accepted) => accepted,
            Err(error) => {
                // Out of open files, most likely: wait for some to close.
                tracing::error!("accepting a connection failed: {error}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let Some(admitted) = admission.admit(address.ip()) else {
            tracing::warn!("connection from {} refused: too many open", address.ip());
            continue;
        };
        let service = TowerToHyperService::new(router.clone().map_request(
            move |request: Request<Incoming>| {
                let mut request = request.map(Body::new);
                request
                    .extensions_mut()
                    .insert(ConnectInfo::<SocketAddr>(address));
                request
            },
        ));
        // A write that waits longer than `send_wait` for the client to read fails, and
        // the connection ends with it, freeing what the answer held.
        let mut stream = TimeoutStream::new(stream);
        stream.set_write_timeout(Some(limits.send_wait));
        let connection = http.serve_connection(TokioIo::new(Box::pin(stream)), service);
        let mut stop = stopped.clone();
        tokio::spawn(async move {
            let _admitted = admitted;
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stop.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
    }
    drop(listener);
    let _ = stop.send(true);
    drop(stopped);
    let _ = tokio::time::timeout(DRAIN_WAIT, stop.closed()).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admission_counts_each_address_and_the_total() {
        let admission = Arc::new(Admission {
            open: Mutex::new((0, HashMap::new())),
            max_total: 3,
            max_per_address: 2,
        });
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let c: IpAddr = "10.0.0.3".parse().unwrap();
        let first = admission.admit(a).expect("a's first");
        let _second = admission.admit(a).expect("a's second");
        assert!(admission.admit(a).is_none(), "a's third is one too many");
        let _third = admission.admit(b).expect("b's first");
        assert!(admission.admit(c).is_none(), "three open in all");
        drop(first);
        let _again = admission.admit(c).expect("room once one closed");
        assert!(admission.admit(a).is_none());
        assert_eq!(admission.open.lock().unwrap().1.len(), 3);
    }
}
