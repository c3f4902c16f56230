//! Error answers: a status and one plain sentence, sent as `{"error": "..."}`.

use axum::http::StatusCode;
pub use crosscap_engine::text::escape_controls;

/// An error answer. The message is one line: control characters from echoed input are
/// escaped when it is made, so no answer or log line carries them raw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: escape_controls(&message.into()),
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

impl From<crate::store::StoreError> for ApiError {
    fn from(err: crate::store::StoreError) -> Self {
        match err {
            crate::store::StoreError::Damaged { .. } => {
                tracing::error!("{err}");
                Self::new(StatusCode::INTERNAL_SERVER_ERROR, err.to_string())
            }
            crate::store::StoreError::Database(detail) => {
                ApiError::internal("the database failed", detail)
            }
        }
    }
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
