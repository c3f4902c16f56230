//! Saved games in SQLite (WAL mode, full sync): a game is its record (game, board,
//! options, players, seed) plus its moves, one row each. Positions are never stored;
//! they are rebuilt by replaying the moves, so a record stays the one source of truth.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

use crate::record::{Players, Record};

/// A database failure, or a saved game whose row cannot be read back.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("saved game {id} is damaged: its {field} cannot be read")]
    Damaged { id: String, field: &'static str },
}

/// A saved game: its record and what the server adds to it.
#[derive(Clone, Debug)]
pub struct Saved {
    pub id: String,
    pub record: Record,
    pub seed: u64,
    /// The secret of each human seat, X then O (empty for a computer seat, and for a
    /// friend's seat until it is claimed).
    pub tokens: [String; 2],
    /// The one-time code of each seat a friend claims on another device, X then O
    /// (empty when there is none or once claimed).
    pub claims: [String; 2],
    /// The secret that stops or deletes the game (empty for games saved before owners).
    pub owner: String,
    pub created: i64,
    pub updated: i64,
}

/// One line of the list of saved games.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Summary {
    pub id: String,
    pub game: String,
    pub board: String,
    pub players: Players,
    pub moves: i64,
    pub finished: bool,
    pub winner: Option<String>,
    pub created: i64,
    pub updated: i64,
}

pub struct Store {
    conn: Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    board TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    seed INTEGER NOT NULL,
    token_x TEXT NOT NULL,
    token_o TEXT NOT NULL,
    resigned TEXT,
    finished INTEGER NOT NULL DEFAULT 0,
    winner TEXT,
    created INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    mv TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX IF NOT EXISTS games_by_update ON games(updated);
";

/// Changes to the schema above, in order; `PRAGMA user_version` counts those applied, so
/// a database written by an older build is brought up to date when opened.
const MIGRATIONS: &[&str] = &[
    "
ALTER TABLE games ADD COLUMN owner_token TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN stopped INTEGER NOT NULL DEFAULT 0;
",
    "
ALTER TABLE games ADD COLUMN claim_x TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN claim_o TEXT NOT NULL DEFAULT '';
",
];

impl Store {
    /// Opens (or creates) `crosscap.sqlite3` in `dir`.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        let conn = Connection::open(dir.join("crosscap.sqlite3"))?;
        Self::init(conn)
    }

    /// A throwaway database, for tests.
    pub fn in_memory() -> Result<Store, StoreError> {
        Self::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Store, StoreError> {
        // WAL with full sync: a committed move survives a killed process and a power cut.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        let mut conn = conn;
        migrate(&mut conn)?;
        Ok(Store { conn })
    }

    /// The journal mode in force (`wal` once opened on a file).
    pub fn journal_mode(&self) -> Result<String, StoreError> {
        Ok(self
            .conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))?)
    }

    /// Saves a new game with the moves it already has (an imported game has some).
    pub fn insert(
        &mut self,
        saved: &Saved,
        finished: bool,
        winner: Option<&str>,
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        let r = &saved.record;
        tx.execute(
            "INSERT INTO games (id, game, board, options, players, seed, token_x, token_o,
                                resigned, finished, winner, created, updated, owner_token,
                                claim_x, claim_o, stopped)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
            params![
                saved.id,
                r.game,
                r.board,
                r.options.to_string(),
                serde_json::to_string(&r.players).expect("players serialise"),
                saved.seed as i64,
                saved.tokens[0],
                saved.tokens[1],
                r.resigned.map(|p| p.to_string()),
                finished,
                winner,
                saved.created,
                saved.updated,
                saved.owner,
                saved.claims[0],
                saved.claims[1],
                r.stopped,
            ],
        )?;
        for (ply, mv) in r.moves.iter().enumerate() {
            tx.execute(
                "INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)",
                params![saved.id, ply as i64, mv],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Appends moves from ply `from` on (earlier rows stay), and the game's new state.
    pub fn append_moves(
        &mut self,
        id: &str,
        from: usize,
        moves: &[String],
        state: &GameState<'_>,
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        for (i, mv) in moves.iter().enumerate() {
            tx.execute(
                "INSERT INTO moves (game_id, ply, mv) VALUES (?1, ?2, ?3)",
                params![id, (from + i) as i64, mv],
            )?;
        }
        update_state(&tx, id, state)?;
        tx.commit()?;
        Ok(())
    }

    /// Takes back every move from ply `keep` on.
    pub fn truncate_moves(
        &mut self,
        id: &str,
        keep: usize,
        state: &GameState<'_>,
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
            params![id, keep as i64],
        )?;
        update_state(&tx, id, state)?;
        tx.commit()?;
        Ok(())
    }

    /// Records the game's state without touching its moves (a resignation).
    pub fn set_state(&mut self, id: &str, state: &GameState<'_>) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        update_state(&tx, id, state)?;
        tx.commit()?;
        Ok(())
    }

    /// Deletes a game and its moves; false when there was no such game.
    pub fn delete(&mut self, id: &str) -> Result<bool, StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute("DELETE FROM moves WHERE game_id = ?1", params![id])?;
        let deleted = tx.execute("DELETE FROM games WHERE id = ?1", params![id])?;
        tx.commit()?;
        Ok(deleted > 0)
    }

    /// Gives the seat (0 for X, 1 for O) whose claim code is `code` its token and spends
    /// the code; false when the seat has no such code (already claimed).
    pub fn claim(
        &mut self,
        id: &str,
        seat: usize,
        code: &str,
        token: &str,
    ) -> Result<bool, StoreError> {
        let (claim, token_column) = [("claim_x", "token_x"), ("claim_o", "token_o")][seat];
        let changed = self.conn.execute(
            &format!(
                "UPDATE games SET {token_column} = ?3, {claim} = '' \
                 WHERE id = ?1 AND {claim} = ?2 AND {claim} != ''"
            ),
            params![id, code, token],
        )?;
        Ok(changed == 1)
    }

    /// A game's owner token (empty for games saved before owners), or `None`.
    pub fn owner(&self, id: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT owner_token FROM games WHERE id = ?1",
                params![id],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// A saved game, or `None`.
    pub fn load(&self, id: &str) -> Result<Option<Saved>, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT game, board, options, players, seed, token_x, token_o, resigned,
                        created, updated, owner_token, stopped, claim_x, claim_o
                 FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, i64>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, String>(6)?,
                        r.get::<_, Option<String>>(7)?,
                        r.get::<_, i64>(8)?,
                        r.get::<_, i64>(9)?,
                        r.get::<_, String>(10)?,
                        r.get::<_, bool>(11)?,
                        [r.get::<_, String>(12)?, r.get::<_, String>(13)?],
                    ))
                },
            )
            .optional()?;
        let Some((
            game,
            board,
            options,
            players,
            seed,
            token_x,
            token_o,
            resigned,
            created,
            updated,
            owner,
            stopped,
            claims,
        )) = row
        else {
            return Ok(None);
        };
        let mut stmt = self
            .conn
            .prepare("SELECT mv FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        let moves = stmt
            .query_map(params![id], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<String>, _>>()?;
        let damaged = |field| StoreError::Damaged {
            id: id.to_string(),
            field,
        };
        Ok(Some(Saved {
            id: id.to_string(),
            record: Record {
                game,
                board,
                options: serde_json::from_str::<Value>(&options).map_err(|_| damaged("options"))?,
                players: serde_json::from_str(&players).map_err(|_| damaged("players"))?,
                moves,
                resigned: resigned.and_then(|p| p.parse().ok()),
                stopped,
            },
            seed: seed as u64,
            tokens: [token_x, token_o],
            claims,
            owner,
            created,
            updated,
        }))
    }

    /// The games not yet finished with a computer seat, oldest first, to resume after a
    /// restart (games whose players cannot be read are left out).
    pub fn unfinished_with_computer(&self) -> Result<Vec<String>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, players FROM games WHERE finished = 0 AND stopped = 0 ORDER BY created",
        )?;
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows
            .into_iter()
            .filter(|(_, players)| {
                serde_json::from_str::<Players>(players).is_ok_and(|p| p.any_computer())
            })
            .map(|(id, _)| id)
            .collect())
    }

    /// The most recently played games first: `limit` of them after skipping `offset`, of
    /// the games `filter` keeps.
    pub fn list(
        &self,
        limit: usize,
        offset: usize,
        filter: &Filter,
    ) -> Result<Vec<Summary>, StoreError> {
        let (clause, kept) = filter.clause(3);
        let mut stmt = self.conn.prepare(&format!(
            "SELECT g.id, g.game, g.board, g.players, g.finished, g.winner, g.created, g.updated,
                    (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)
             FROM games g {clause} ORDER BY g.updated DESC, g.created DESC, g.id
             LIMIT ?1 OFFSET ?2"
        ))?;
        let as_sql = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        let (limit, offset) = (as_sql(limit), as_sql(offset));
        let mut params: Vec<&dyn rusqlite::ToSql> = vec![&limit, &offset];
        params.extend(kept.iter().map(|p| p as &dyn rusqlite::ToSql));
        let rows = stmt
            .query_map(params.as_slice(), |r| {
                let players: String = r.get(3)?;
                Ok(Summary {
                    id: r.get(0)?,
                    game: r.get(1)?,
                    board: r.get(2)?,
                    players: serde_json::from_str(&players).unwrap_or_default(),
                    finished: r.get(4)?,
                    winner: r.get(5)?,
                    created: r.get(6)?,
                    updated: r.get(7)?,
                    moves: r.get(8)?,
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(rows)
    }

    /// The number of saved games that `filter` keeps.
    pub fn count(&self, filter: &Filter) -> Result<usize, StoreError> {
        let (clause, kept) = filter.clause(1);
        let sql = format!("SELECT COUNT(*) FROM games g {clause}");
        let n: i64 = self
            .conn
            .query_row(&sql, rusqlite::params_from_iter(kept), |r| r.get(0))?;
        Ok(n as usize)
    }
}

/// Which saved games a list keeps: those whose ids `ids` lists, those of the game named
/// `game`, both, or (the default) all.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    pub ids: Option<Vec<String>>,
    pub game: Option<String>,
}

impl Filter {
    /// The `WHERE` clause (empty when every game is kept), its parameters numbered from
    /// `?first`, and their values in order.
    fn clause(&self, first: usize) -> (String, Vec<String>) {
        let mut conditions = Vec::new();
        let mut values = Vec::new();
        if let Some(ids) = &self.ids {
            conditions.push(format!(
                "g.id IN (SELECT value FROM json_each(?{}))",
                first + values.len()
            ));
            values.push(serde_json::to_string(ids).expect("strings serialise"));
        }
        if let Some(game) = &self.game {
            conditions.push(format!("g.game = ?{}", first + values.len()));
            values.push(game.clone());
        }
        let clause = if conditions.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", conditions.join(" AND "))
        };
        (clause, values)
    }
}

/// Brings the schema up to date, one migration per transaction.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let applied: usize = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    for (done, migration) in MIGRATIONS.iter().enumerate().skip(applied) {
        let tx = conn.transaction()?;
        tx.execute_batch(migration)?;
        tx.pragma_update(None, "user_version", done + 1)?;
        tx.commit()?;
    }
    Ok(())
}

/// What changes on a game row with each move, undo or resignation.
pub struct GameState<'a> {
    pub finished: bool,
    pub stopped: bool,
    pub winner: Option<&'a str>,
    pub resigned: Option<&'a str>,
    pub updated: i64,
}

fn update_state(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    state: &GameState<'_>,
) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE games SET finished = ?2, winner = ?3, resigned = ?4, updated = ?5, stopped = ?6
         WHERE id = ?1",
        params![
            id,
            state.finished,
            state.winner,
            state.resigned,
            state.updated,
            state.stopped
        ],
    )?;
    Ok(())
}
