//! The HTTP routes: the JSON API under `/api` and the page's files.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use crosscap_engine::Level;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::app::{ApiError, App, NewGame};
use crate::record::Record;
use crate::web;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

type Answer = Result<Response, ApiError>;

fn ok(value: Value) -> Answer {
    Ok(Json(value).into_response())
}

/// A JSON body, or a 4xx naming what is wrong with it (too large, not JSON, wrong fields).
fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(v)| v).map_err(|rejection| {
        let status = rejection.status();
        let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
            "the request body is too large".to_string()
        } else {
            rejection.body_text()
        };
        ApiError::new(status, message)
    })
}

type Params = Result<Query<HashMap<String, String>>, QueryRejection>;

fn params(query: Params) -> Result<HashMap<String, String>, ApiError> {
    query
        .map(|Query(q)| q)
        .map_err(|r| ApiError::bad_request(r.body_text()))
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

/// The router of the whole app.
pub fn router(app: Arc<App>) -> Router {
    let max_body = app.limits.max_body_bytes;
    let api = Router::new()
        .route("/catalog", get(catalog))
        .route("/games", get(list_games).post(create_game))
        .route("/games/import", post(import_game))
        .route("/games/{id}", get(show_game))
        .route("/games/{id}/moves", post(play_move))
        .route("/games/{id}/record", get(export_record))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/resign", post(resign))
        .route("/games/{id}/hint", get(hint))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such API route") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this API route does not take that method",
            )
        });
    Router::new()
        .nest("/api", api)
        .route("/", get(|| async { web::page("index.html") }))
        .route(
            "/static/{*file}",
            get(|Path(file): Path<String>| async move { web::page(&file) }),
        )
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(app)
}

async fn catalog(State(app): State<Arc<App>>) -> Answer {
    ok(json!({
        "games": app.registry.kinds(),
        "levels": ["easy", "medium", "hard", "expert", "perfect", "random", "flatmc:160", "mcts:500"],
        "limits": app.limits,
    }))
}

async fn list_games(State(app): State<Arc<App>>) -> Answer {
    ok(app.list()?)
}

async fn create_game(
    State(app): State<Arc<App>>,
    request: Result<Json<NewGame>, JsonRejection>,
) -> Answer {
    let request = body(request)?;
    let game = blocking(move || app.create(request)).await?;
    Ok((StatusCode::CREATED, Json(game)).into_response())
}

async fn import_game(
    State(app): State<Arc<App>>,
    record: Result<Json<Record>, JsonRejection>,
) -> Answer {
    let record = body(record)?;
    let game = blocking(move || app.import(record)).await?;
    Ok((StatusCode::CREATED, Json(game)).into_response())
}

/// Runs work that may replay a long game or build a large board off the async threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the request failed: {e}"),
        )
    })?
}

/// `GET /api/games/{id}`: `?ply=N` shows the position after N moves; `?wait=V` waits
/// until the game's version differs from V (live following by long polling).
async fn show_game(State(app): State<Arc<App>>, Path(id): Path<String>, query: Params) -> Answer {
    let query = params(query)?;
    if let Some(version) = number::<u64>(&query, "wait")? {
        return ok(app.follow(&id, version).await?);
    }
    let ply = number::<usize>(&query, "ply")?;
    let slot = app.slot(&id)?;
    ok(app.snapshot(&slot, ply)?)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    #[serde(default)]
    token: String,
}

async fn play_move(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    request: Result<Json<MoveRequest>, JsonRejection>,
) -> Answer {
    let request = body(request)?;
    ok(app.play(&id, &request.text, &request.token).await?)
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct SeatRequest {
    #[serde(default)]
    token: String,
}

async fn undo(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    request: Result<Json<SeatRequest>, JsonRejection>,
) -> Answer {
    let request = body(request)?;
    ok(blocking(move || app.undo(&id, &request.token)).await?)
}

async fn resign(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    request: Result<Json<SeatRequest>, JsonRejection>,
) -> Answer {
    let request = body(request)?;
    ok(app.resign(&id, &request.token)?)
}

async fn export_record(State(app): State<Arc<App>>, Path(id): Path<String>) -> Answer {
    let record = app.record(&id)?;
    Ok((
        [(
            header::CONTENT_DISPOSITION,
            format!("inline; filename=\"crosscap-{id}.json\""),
        )],
        Json(record),
    )
        .into_response())
}

async fn hint(State(app): State<Arc<App>>, Path(id): Path<String>, query: Params) -> Answer {
    let query = params(query)?;
    let level = query
        .get("level")
        .map(|l| l.parse::<Level>())
        .transpose()
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    ok(app.hint(&id, level).await?)
}
