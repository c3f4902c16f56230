//! The HTTP routes: the JSON API under `/api` and the page's files, and [`ApiError`], the
//! one error answer of the API, which every rejection of a request becomes.

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use bytes::Bytes;
use crosscap_engine::Level;
use crosscap_engine::text::{escape_controls, shorten_long_runs};
use hyper::body::{Frame, SizeHint};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::app::{App, NewGame, Snapshot};
use crate::connections;
use crate::guard::{self, HostPolicy, RateLimit};
use crate::record::RecordFile;
use crate::starts::Start;
use crate::store::{Filter, StoreError};
use crate::web;

/// An error answer: a status and one plain sentence, sent as `{"error": "..."}`. The
/// message is one line: control characters from echoed input are escaped when it is made,
/// so no answer or log line carries them raw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: shorten_long_runs(&escape_controls(&message.into())),
        }
    }
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    pub fn conflict(message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::CONFLICT, message)
    }
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::FORBIDDEN, message)
    }
    pub fn not_found(message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::NOT_FOUND, message)
    }
    pub fn too_large(message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::PAYLOAD_TOO_LARGE, message)
    }
    pub fn busy(message: impl Into<String>) -> ApiError {
        Self::new(StatusCode::TOO_MANY_REQUESTS, message)
    }

    /// A failure inside the server: the detail goes to the log, the answer says only
    /// `what` failed (no paths, no database text).
    pub fn internal(what: &str, detail: impl std::fmt::Display) -> ApiError {
        tracing::error!("{what}: {}", escape_controls(&detail.to_string()));
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, what)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Answer {
            error: String,
        }
        let answer = Answer {
            error: self.message,
        };
        (self.status, Json(answer)).into_response()
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Damaged { .. } => {
                tracing::error!("{err}");
                Self::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string())
            }
            StoreError::Database(detail) => ApiError::internal("the database failed", detail),
        }
    }
}

/// A body that is too large, not JSON, or not the fields expected: its status (413, 415,
/// 400 or 422) and what is wrong, in the API's words around the JSON parser's detail
/// (not the framework's, which speak of target types).
impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        let status = rejection.status();
        let detail = std::error::Error::source(&rejection)
            .map(ToString::to_string)
            .unwrap_or_default();
        let message = match rejection {
            _ if status == StatusCode::PAYLOAD_TOO_LARGE => {
                "the request body is too large".to_string()
            }
            JsonRejection::JsonSyntaxError(_) => {
                format!("the request body is not valid JSON: {detail}")
            }
            JsonRejection::JsonDataError(_) => {
                format!("the request body's fields do not fit this request: {detail}")
            }
            JsonRejection::MissingJsonContentType(_) => {
                "the request body must be JSON, sent as Content-Type: application/json".to_string()
            }
            other => other.body_text(),
        };
        ApiError::new(status, message)
    }
}

/// A path that cannot be a game's id (not UTF-8): a 400 like every other rejection.
impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> Self {
        ApiError::bad_request(rejection.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> Self {
        ApiError::bad_request(rejection.body_text())
    }
}

type Answer = Result<Response, ApiError>;

fn ok(value: impl serde::Serialize) -> Answer {
    Ok(Json(value).into_response())
}

/// `value`'s JSON object with, as its last field, `layout`: the drawing of `start`'s
/// board, for the answers that open a game or preview a board. The drawing goes out from
/// the board's start, shared by every game on the board, not copied into the answer: 63
/// unread answers of a game on goldberg:20 held 2.8 MB each.
fn drawn(status: StatusCode, value: &impl Serialize, start: &Arc<Start>) -> Answer {
    let mut head =
        serde_json::to_vec(value).map_err(|e| ApiError::internal("the answer failed", e))?;
    // The object's closing brace comes after the drawing.
    head.pop();
    head.extend_from_slice(br#","layout":"#);
    let pieces = [
        Bytes::from(head),
        start.drawing_text(),
        Bytes::from_static(b"}"),
    ];
    Ok((status, [JSON_TYPE], Body::new(Pieces(pieces.into()))).into_response())
}

/// The content type of a JSON answer.
const JSON_TYPE: (header::HeaderName, HeaderValue) = (
    header::CONTENT_TYPE,
    HeaderValue::from_static("application/json"),
);

/// A body of a few pieces sent one after another (its length known ahead).
struct Pieces(VecDeque<Bytes>);

impl hyper::body::Body for Pieces {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(
            self.get_mut()
                .0
                .pop_front()
                .map(|piece| Ok(Frame::data(piece))),
        )
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.0.iter().map(|piece| piece.len() as u64).sum())
    }
}

/// A JSON body, or a 4xx naming what is wrong with it (too large, not JSON, wrong fields).
fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    Ok(body?.0)
}

/// A game's id from the path.
struct GameId(String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Path(id) = Path::<String>::from_request_parts(parts, state).await?;
        Ok(GameId(id))
    }
}

type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

fn params(query: Params) -> Result<HashMap<String, String>, ApiError> {
    Ok(query?.0)
}

fn number<T: std::str::FromStr>(
    query: &HashMap<String, String>,
    name: &str,
) -> Result<Option<T>, ApiError> {
    query
        .get(name)
        .map(|v| {
            v.parse()
                .map_err(|_| ApiError::bad_request(format!("{name} must be a number, not {v:?}")))
        })
        .transpose()
}

/// The router of the whole app, answering the hosts `hosts` allows. Serve it with
/// [`serve`] (or with the client's address as `ConnectInfo`): the rate limits need it.
pub fn router(app: Arc<App>, hosts: HostPolicy) -> Router {
    let max_body = app.limits.max_body_bytes;
    let limits = &app.limits;
    let creations = Arc::new(RateLimit::new(
        "games created",
        limits.create_burst,
        limits.create_period,
    ));
    let hints = Arc::new(RateLimit::new(
        "hints",
        limits.hint_burst,
        limits.hint_period,
    ));
    let limited = |route: MethodRouter<Arc<App>>, limit: &Arc<RateLimit>| {
        route.layer(from_fn_with_state(Arc::clone(limit), guard::rate_limited))
    };
    let api = Router::new()
        .route("/catalog", get(catalog))
        .route("/status", get(status))
        .route(
            "/board",
            limited(get(board_preview).post(board_preview_posted), &creations),
        )
        .route(
            "/games",
            get(list_games).merge(limited(post(create_game), &creations)),
        )
        .route("/games/import", limited(post(import_game), &creations))
        .route("/games/{id}", get(show_game).delete(delete_game))
        .route("/games/{id}/moves", post(play_move))
        .route("/games/{id}/record", get(export_record))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/resign", post(resign))
        .route("/games/{id}/stop", post(stop))
        .route("/games/{id}/claim", limited(post(claim), &creations))
        .route("/games/{id}/hint", limited(get(hint), &hints))
        .route("/games/{id}/solve", limited(get(solve), &hints))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such API route") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this API route does not take that method",
            )
        });
    Router::new()
        .nest("/api", api)
        .route(
            "/",
            get(|headers: HeaderMap| async move { web::page("index.html", &headers) }),
        )
        .route(
            "/favicon.ico",
            get(|headers: HeaderMap| async move { web::page("favicon.svg", &headers) }),
        )
        .route(
            "/static/{*file}",
            get(|Path(file): Path<String>, headers: HeaderMap| async move {
                web::page(&file, &headers)
            }),
        )
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this page is only read (GET)",
            )
        })
        .layer(DefaultBodyLimit::max(max_body))
        .layer(from_fn_with_state(
            (max_body, app.limits.request_wait),
            guard::body_in_time,
        ))
        .layer(from_fn_with_state(Arc::new(hosts), guard::check_host))
        .layer(from_fn_with_state(
            Arc::new(app.limits.clone()),
            guard::head_within,
        ))
        .layer(from_fn(guard::security_headers))
        .layer(from_fn(guard::log_request))
        .with_state(app)
}

/// Serves the app on `listener` until `shutdown` resolves, then stops every search.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Arc<App>,
    hosts: HostPolicy,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) {
    let limits = app.limits.clone();
    let router = router(Arc::clone(&app), hosts);
    connections::serve_connections(listener, router, &limits, async move {
        shutdown.await;
        app.shutdown();
    })
    .await;
}

async fn catalog(State(app): State<Arc<App>>) -> Answer {
    ok(json!({
        "games": app.catalog.games().map(|g| g.info).collect::<Vec<_>>(),
        "levels": ["easy", "medium", "hard", "expert", "perfect", "random", "flatmc:160", "mcts:500", "mcts:500ms"],
        "limits": app.limits,
    }))
}

/// `GET /api/board?game=NAME&board=SPEC&options=JSON`: a board's starting position, drawn,
/// with the game's options as a new game takes them; the game's default board when `board`
/// is absent.
async fn board_preview(State(app): State<Arc<App>>, query: Params) -> Answer {
    let query = params(query)?;
    let game = query
        .get("game")
        .cloned()
        .ok_or_else(|| ApiError::bad_request("name the game: ?game=NAME"))?;
    let options = match query.get("options") {
        None => json!({}),
        Some(text) => serde_json::from_str::<Value>(text)
            .map_err(|_| ApiError::bad_request("options must be a JSON object"))?,
    };
    preview(app, game, query.get("board").cloned(), options).await
}

/// What `POST /api/board` takes: the query of `GET /api/board` as a JSON body, for boards
/// of any length (a pasted board file of some thousand cells is too long for an address):
/// the page's previews (the rules pages' pictures, the new-game form's board).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoardRequest {
    game: String,
    #[serde(default)]
    board: Option<String>,
    #[serde(default)]
    options: Value,
}

/// `POST /api/board` with `{"game", "board", "options"}`: as `GET /api/board`.
async fn board_preview_posted(
    State(app): State<Arc<App>>,
    request: Result<Json<BoardRequest>, JsonRejection>,
) -> Answer {
    let BoardRequest {
        game,
        board,
        options,
    } = body(request)?;
    preview(app, game, board, options).await
}

/// A board's starting position under `options` (none: `null` or `{}`), with its drawing.
async fn preview(app: Arc<App>, game: String, board: Option<String>, options: Value) -> Answer {
    let options = match options {
        Value::Null => json!({}),
        options if options.is_object() => options,
        _ => return Err(ApiError::bad_request("options must be a JSON object")),
    };
    let _building = app.building_permit().await?;
    let preview = app
        .run(move |app| app.preview(&game, board.as_deref(), options))
        .await?;
    drawn(StatusCode::OK, &preview, &preview.start)
}

/// `GET /api/status`: searches running, games in memory, resident memory, uptime.
async fn status(State(app): State<Arc<App>>) -> Answer {
    ok(app.run(|app| Ok(app.status())).await?)
}

/// `GET /api/games?limit=N&offset=M[&ids=ID,ID][&game=NAME]`: a page of the saved games,
/// latest first, of them all, of those with the ids given (a page finds the games it holds
/// seats of), of one game, or both.
async fn list_games(State(app): State<Arc<App>>, query: Params) -> Answer {
    let query = params(query)?;
    let limit = number::<usize>(&query, "limit")?;
    let offset = number::<usize>(&query, "offset")?.unwrap_or(0);
    let filter = Filter {
        ids: query.get("ids").map(|ids| game_ids(ids)).transpose()?,
        game: query.get("game").cloned(),
    };
    ok(app.run(move |app| app.list(limit, offset, filter)).await?)
}

/// The ids of a comma-separated list (empty entries skipped), each of letters and digits.
fn game_ids(text: &str) -> Result<Vec<String>, ApiError> {
    text.split(',')
        .filter(|id| !id.is_empty())
        .map(|id| {
            if id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric()) {
                Ok(id.to_string())
            } else {
                Err(ApiError::bad_request(format!(
                    "ids: {:?} is not a game id",
                    id.chars().take(64).collect::<String>()
                )))
            }
        })
        .collect()
}

fn created(game: Snapshot) -> Answer {
    drawn(StatusCode::CREATED, &game, &game.start)
}

async fn create_game(
    State(app): State<Arc<App>>,
    request: Result<Json<NewGame>, JsonRejection>,
) -> Answer {
    created(app.create(body(request)?).await?)
}

async fn import_game(
    State(app): State<Arc<App>>,
    record: Result<Json<RecordFile>, JsonRejection>,
) -> Answer {
    created(app.import(body(record)?).await?)
}

/// `GET /api/games/{id}`: the game with its board's drawing; `?ply=N` shows the position
/// after N moves; `?wait=V` waits until the game's version differs from V (live following
/// by long polling). The page holds the drawing from its first request, so the answers
/// with `ply` or `wait` leave it out.
async fn show_game(State(app): State<Arc<App>>, GameId(id): GameId, query: Params) -> Answer {
    let query = params(query)?;
    if let Some(version) = number::<u64>(&query, "wait")? {
        return ok(app.follow(&id, version).await?);
    }
    let ply = number::<usize>(&query, "ply")?;
    let snapshot = app
        .run(move |app| app.snapshot(&*app.slot(&id)?, ply))
        .await?;
    match ply {
        Some(_) => ok(snapshot),
        None => drawn(StatusCode::OK, &snapshot, &snapshot.start),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    #[serde(default)]
    token: String,
    /// The number of moves played in the position the move was chosen in: when given, a
    /// move sent again, or late, after the game has gone on is refused (409), not played
    /// in a position its player never saw.
    #[serde(default)]
    ply: Option<usize>,
}

async fn play_move(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    request: Result<Json<MoveRequest>, JsonRejection>,
) -> Answer {
    let request = body(request)?;
    ok(app
        .play(&id, &request.text, &request.token, request.ply)
        .await?)
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    #[serde(default)]
    token: String,
}

async fn undo(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    request: Result<Json<SeatRequest>, JsonRejection>,
) -> Answer {
    let request = body(request)?;
    ok(app.run(move |app| app.undo(&id, &request.token)).await?)
}

async fn resign(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    request: Result<Json<SeatRequest>, JsonRejection>,
) -> Answer {
    let request = body(request)?;
    ok(app.run(move |app| app.resign(&id, &request.token)).await?)
}

/// `POST /api/games/{id}/stop` with the owner's token: the game ends without a winner
/// and any computer thinking in it stops.
async fn stop(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    request: Result<Json<SeatRequest>, JsonRejection>,
) -> Answer {
    let request = body(request)?;
    ok(app.run(move |app| app.stop(&id, &request.token)).await?)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClaimRequest {
    code: String,
}

/// `POST /api/games/{id}/claim` with a friend's one-time code: the seat and its token.
async fn claim(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    request: Result<Json<ClaimRequest>, JsonRejection>,
) -> Answer {
    let request = body(request)?;
    ok(app.run(move |app| app.claim(&id, &request.code)).await?)
}

/// `DELETE /api/games/{id}` with the owner's token in the body.
async fn delete_game(
    State(app): State<Arc<App>>,
    GameId(id): GameId,
    request: Result<Json<SeatRequest>, JsonRejection>,
) -> Answer {
    let request = body(request)?;
    ok(app.run(move |app| app.delete(&id, &request.token)).await?)
}

async fn export_record(State(app): State<Arc<App>>, GameId(id): GameId) -> Answer {
    let record = {
        let id = id.clone();
        app.run(move |app| app.record(&id)).await?
    };
    Ok((
        [(
            header::CONTENT_DISPOSITION,
            format!("inline; filename=\"crosscap-{id}.json\""),
        )],
        Json(record),
    )
        .into_response())
}

async fn hint(State(app): State<Arc<App>>, GameId(id): GameId, query: Params) -> Answer {
    let query = params(query)?;
    let level = query
        .get("level")
        .map(|l| l.parse::<Level>())
        .transpose()
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    ok(app.hint(&id, level).await?)
}

async fn solve(State(app): State<Arc<App>>, GameId(id): GameId) -> Answer {
    ok(app.solve(&id).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line_without_raw_control_characters() {
        let error = ApiError::bad_request("bad move \"C4\u{1b}[31m\"\nsecond line ≤");
        assert_eq!(error.message, "bad move \"C4\\u{1b}[31m\"\\nsecond line ≤");
        assert!(!error.message.chars().any(char::is_control));
    }
}
