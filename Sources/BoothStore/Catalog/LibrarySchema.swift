import BoothCore
import Foundation
import GRDB

/// The catalog's schema, as named, append-only migrations: a migration that has shipped is
/// never edited; changes come as new migrations.
enum LibrarySchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: photo catalog") { db in
            try db.create(table: "photo") { table in
                table.primaryKey("id", .text)
                table.column("number", .integer).notNull().unique()
                table.column("caption", .text).notNull()
                // ISO 8601 UTC with milliseconds ("2026-11-22T07:33:00.123Z"): exact, and sorts as text.
                table.column("created_at", .text).notNull().indexed()
                table.column("thumbnail", .blob).notNull()
                table.column("width", .integer).notNull()
                table.column("height", .integer).notNull()
                table.column("byte_count", .integer).notNull()
                table.column("file", .text).notNull().unique()
            }
            // Where `check --repair` keeps the record of a photo whose original is gone or
            // unreadable: its caption and thumbnail are all that is left of it.
            try db.create(table: "lost_photo") { table in
                table.primaryKey("id", .text)
                table.column("number", .integer).notNull()
                table.column("caption", .text).notNull()
                table.column("created_at", .text).notNull()
                table.column("thumbnail", .blob).notNull()
                table.column("width", .integer).notNull()
                table.column("height", .integer).notNull()
                table.column("byte_count", .integer).notNull()
                table.column("file", .text).notNull()
                table.column("lost_at", .text).notNull()
                table.column("reason", .text).notNull()
            }
        }
        // The gallery pages through photos newest first; without an index in that exact order
        // every page would sort the whole catalog.
        migrator.registerMigration("v2: newest-first index") { db in
            try db.create(index: "photo_newest_first", on: "photo", columns: ["created_at", "number"])
        }
        // An operator can take a photo out of the guests' sight without deleting it. Guest pages
        // read only visible photos: the partial index holds exactly those, in page order, so a
        // page neither sorts the catalog nor steps over hidden rows.
        migrator.registerMigration("v3: hidden photos") { db in
            try db.alter(table: "photo") { table in
                table.add(column: "hidden", .boolean).notNull().defaults(to: false)
            }
            try db.execute(sql: "CREATE INDEX photo_visible_newest_first ON photo(created_at, number) WHERE hidden = 0")
        }
        // Each photo's sidecar names the booth that took it; the catalog keeps it too, so that
        // a sidecar written again says the same.
        migrator.registerMigration("v4: booth") { db in
            try db.alter(table: "photo") { table in
                table.add(column: "booth", .text).notNull().defaults(to: "")
            }
        }
        // Photos that leave the booth name the camera in their EXIF; the catalog and sidecar
        // keep it from the save, when the camera is known.
        migrator.registerMigration("v5: camera") { db in
            try db.alter(table: "photo") { table in
                table.add(column: "camera_make", .text)
                table.add(column: "camera_model", .text)
            }
        }
        // The event's bucket (BoothSync). Each photo taken here waits in the outbox until the
        // store has it: one row per photo, its version raised by every change, so that a change
        // made during an upload is uploaded again and a burst of changes is uploaded once. The
        // photos already in the library are queued, so that a booth that starts syncing late
        // still sends them all. Photos imported from the event's other booths say which.
        migrator.registerMigration("v6: event sync") { db in
            try db.alter(table: "photo") { table in
                table.add(column: "origin", .text)
            }
            try db.create(table: "sync_outbox") { table in
                table.primaryKey("photo_id", .text)
                table.column("version", .integer).notNull().defaults(to: 1)
                // Whether the thumbnail goes too (a new photo); a change sends the original and record.
                table.column("thumbnail", .boolean).notNull().defaults(to: true)
                table.column("queued_at", .text).notNull()
                table.column("attempts", .integer).notNull().defaults(to: 0)
                table.column("next_attempt_at", .text)
                table.column("last_error", .text)
            }
            try db.execute(sql: "INSERT INTO sync_outbox (photo_id, queued_at) SELECT id, created_at FROM photo")
            // What the worker last did and what it found, for `photobooth sync status`.
            try db.create(table: "sync_state") { table in
                table.primaryKey("name", .text)
                table.column("value", .text).notNull()
            }
            // The records of other booths already imported, with the ETag they had, so that an
            // unchanged record is not fetched again.
            try db.create(table: "sync_seen") { table in
                table.primaryKey("key", .text)
                table.column("etag", .text).notNull()
            }
        }
        // What guests find their photos by (issue 14). `name_key` is the photo's name folded as
        // guests mean it (``NameKey``), empty for a placeholder: the albums of names group by
        // it and the booth's gallery jumps along it. `search_text` is every name folded the same
        // way (a placeholder too), and `photo_search` its full-text index, for search: the index
        // and the words searched for are folded by one function, so "strauss" finds "Strauß"
        // as the album does (SQLite's own folding keeps ß). Its rows are keyed by the photo's number,
        // which never changes (the implicit rowid may, on VACUUM), and triggers keep it in step.
        // `favourite` is the operator's pick; `perceptual_hash` a 64-bit fingerprint of the
        // picture for near-duplicates, NULL until computed (at save, or at start for older
        // photos).
        migrator.registerMigration("v7: search, albums, favourites, near-duplicates") { db in
            try db.alter(table: "photo") { table in
                table.add(column: "name_key", .text).notNull().defaults(to: "")
                table.add(column: "search_text", .text).notNull().defaults(to: "")
                table.add(column: "favourite", .boolean).notNull().defaults(to: false)
                table.add(column: "perceptual_hash", .integer)
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, number, caption FROM photo") {
                let number: Int = row["number"]
                let caption = Caption(sanitizing: row["caption"] as String) ?? .placeholder(number: number)
                try db.execute(
                    sql: "UPDATE photo SET name_key = ?, search_text = ? WHERE id = ?",
                    arguments: [NameKey.of(caption, number: number), NameKey.fold(caption.text), row["id"] as String])
            }
            try db.execute(
                sql: """
                    CREATE INDEX photo_visible_by_name ON photo(name_key, created_at, number) WHERE hidden = 0;
                    CREATE INDEX photo_visible_favourites ON photo(created_at, number) WHERE hidden = 0 AND favourite = 1;
                    CREATE VIRTUAL TABLE photo_search USING fts5(
                        search_text, content = 'photo', content_rowid = 'number', tokenize = 'unicode61 remove_diacritics 2');
                    CREATE TRIGGER photo_search_insert AFTER INSERT ON photo BEGIN
                        INSERT INTO photo_search (rowid, search_text) VALUES (new.number, new.search_text);
                    END;
                    CREATE TRIGGER photo_search_delete AFTER DELETE ON photo BEGIN
                        INSERT INTO photo_search (photo_search, rowid, search_text) VALUES ('delete', old.number, old.search_text);
                    END;
                    CREATE TRIGGER photo_search_update AFTER UPDATE OF search_text, number ON photo BEGIN
                        INSERT INTO photo_search (photo_search, rowid, search_text) VALUES ('delete', old.number, old.search_text);
                        INSERT INTO photo_search (rowid, search_text) VALUES (new.number, new.search_text);
                    END;
                    INSERT INTO photo_search (photo_search) VALUES ('rebuild');
                    """)
        }
        // Names folded as NameKey folds them now, without any mark Foundation's folding left
        // (such as a run of marks after a non-letter): the keys stored before would no longer
        // match the folded names that search and the albums' addresses compare them with.
        migrator.registerMigration("v8: names folded without marks") { db in
            for row in try Row.fetchAll(db, sql: "SELECT id, number, caption FROM photo") {
                let number: Int = row["number"]
                let caption = Caption(sanitizing: row["caption"] as String) ?? .placeholder(number: number)
                let (key, text) = (NameKey.of(caption, number: number), NameKey.fold(caption.text))
                try db.execute(
                    sql: "UPDATE photo SET name_key = ?, search_text = ? WHERE id = ? AND (name_key != ? OR search_text != ?)",
                    arguments: [key, text, row["id"] as String, key, text])
            }
        }
        // Start-up independent of the library's size (issue 16). Every operation that writes
        // into photos/ first commits its intent (`in_flight`: which photo, which file, what it
        // does), then does its file work, then removes the intent in its own final commit: a
        // crash leaves exactly the intents whose files need a look, and a start looks at those
        // alone (``LibraryMaintenance/reconcileAtStart()``). `catalog_state` is one row: the catalog's
        // identity (new with each catalog, so that a rebuilt one is not compared with the old),
        // a count of the changes made to photos and intents (raised by the triggers below, and
        // mirrored after each commit into `photobooth.changes` beside the catalog, where a
        // start finds that a catalog lost commits), and why the next start must check every
        // photo, when it must: a catalog made here (new, or of a version that kept no intents,
        // whose crashes and missing sidecars only a full check finds), or one that migrations
        // changed since (``noteMigrating(_:)``). The triggers name no column of `photo`, so that
        // a column can still be dropped (as the tests that take a catalog back to an earlier
        // version do); a derived value's update (a perceptual hash) is counted too, harmlessly.
        migrator.registerMigration("v9: operations in flight") { db in
            try db.execute(
                sql: """
                    CREATE TABLE in_flight (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        photo_id TEXT NOT NULL,
                        file TEXT NOT NULL,
                        operation TEXT NOT NULL,
                        started_at TEXT NOT NULL);
                    CREATE TABLE catalog_state (
                        only INTEGER PRIMARY KEY CHECK (only = 1),
                        identity TEXT NOT NULL,
                        changes INTEGER NOT NULL,
                        full_check_due TEXT);
                    CREATE TRIGGER count_photo_insert AFTER INSERT ON photo BEGIN
                        UPDATE catalog_state SET changes = changes + 1;
                    END;
                    CREATE TRIGGER count_photo_delete AFTER DELETE ON photo BEGIN
                        UPDATE catalog_state SET changes = changes + 1;
                    END;
                    CREATE TRIGGER count_photo_update AFTER UPDATE ON photo BEGIN
                        UPDATE catalog_state SET changes = changes + 1;
                    END;
                    CREATE TRIGGER count_intent AFTER INSERT ON in_flight BEGIN
                        UPDATE catalog_state SET changes = changes + 1;
                    END;
                    """)
            // Two questions every start asks, answered from partial indexes that hold only the
            // rows asked for, rather than by reading every row (tens of milliseconds for 100,000
            // photos): whether any row has an id that is not a photo id (``PhotoRecord/wellFormedID``,
            // never written by the booth), and which photos the background filler still has to
            // give a perceptual hash (the hash is stored after the thumbnail, so reading it
            // reads the whole row). Each index's condition is the one its query states.
            try db.execute(sql: "CREATE INDEX photo_malformed_id ON photo(id) WHERE NOT (\(PhotoRecord.wellFormedID))")
            try db.execute(sql: "CREATE INDEX photo_without_hash ON photo(created_at, number) WHERE perceptual_hash IS NULL")
            try db.execute(
                sql: "INSERT INTO catalog_state (only, identity, changes, full_check_due) VALUES (1, ?, 0, ?)",
                arguments: [
                    UUID.random().lowercased,
                    "the catalog is new, or was made by an earlier version that kept no record of operations in flight",
                ])
        }
        // A guest's deletion through another reader of the event's bucket (`photobooth serve`,
        // whose link the QR code may carry): the record of a photo of another booth publishes
        // the SHA-256 of the photo's deletion key and its expiry, kept here per imported photo
        // (and gone with it); a reader that takes a guest's key hides the photo at once and
        // queues its request for the bucket, where the booth that took the photo finds it and
        // deletes the photo. When the photo's tombstone comes, the reader removes its request
        // from the bucket and keeps it here as settled, so that the key, given again, is told
        // the photo is gone.
        migrator.registerMigration("v10: guest deletions through other readers") { db in
            try db.execute(
                sql: """
                    CREATE TABLE imported_deletion_key (
                        photo_id TEXT PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
                        key_sha256 TEXT NOT NULL,
                        until TEXT NOT NULL);
                    CREATE TABLE deletion_request (
                        photo_id TEXT PRIMARY KEY,
                        key TEXT NOT NULL,
                        requested_at TEXT NOT NULL,
                        uploaded_at TEXT,
                        settled_at TEXT);
                    """)
        }
        // One signal for what guests see (issue 26): the web keeps its answers, and the booth's
        // screens their pages, for as long as the photos they show stay as they are
        // (``GalleryChanges``). `gallery_changes` counts the changes guests can see, raised in the
        // transaction of each by triggers, so that no writer of the catalog, in any process, can
        // forget it: a photo added or deleted, or changed in what the gallery shows of it. An
        // update that changes nothing guests see (a perceptual hash, or the same value again)
        // is not counted, nor is a write to any other table (the sync's outbox and state, the
        // intents). The update trigger compares every column but the perceptual hash: a
        // migration that drops one of them drops the trigger first, and one that adds a column
        // makes it again.
        migrator.registerMigration("v11: one signal for what guests see") { db in
            try db.execute(
                sql: """
                    ALTER TABLE catalog_state ADD COLUMN gallery_changes INTEGER NOT NULL DEFAULT 0;
                    CREATE TRIGGER gallery_photo_insert AFTER INSERT ON photo BEGIN
                        UPDATE catalog_state SET gallery_changes = gallery_changes + 1;
                    END;
                    CREATE TRIGGER gallery_photo_delete AFTER DELETE ON photo BEGIN
                        UPDATE catalog_state SET gallery_changes = gallery_changes + 1;
                    END;
                    CREATE TRIGGER gallery_photo_update AFTER UPDATE ON photo
                    WHEN old.id IS NOT new.id OR old.number IS NOT new.number OR old.caption IS NOT new.caption
                        OR old.created_at IS NOT new.created_at OR old.thumbnail IS NOT new.thumbnail OR old.width IS NOT new.width
                        OR old.height IS NOT new.height OR old.byte_count IS NOT new.byte_count OR old.file IS NOT new.file
                        OR old.booth IS NOT new.booth OR old.hidden IS NOT new.hidden OR old.camera_make IS NOT new.camera_make
                        OR old.camera_model IS NOT new.camera_model OR old.origin IS NOT new.origin
                        OR old.name_key IS NOT new.name_key OR old.search_text IS NOT new.search_text
                        OR old.favourite IS NOT new.favourite
                    BEGIN
                        UPDATE catalog_state SET gallery_changes = gallery_changes + 1;
                    END;
                    """)
        }
        // Pictures composed of shots (strips, collages, animations): a picture's kind and
        // layout, and its shots, each kept as the camera took it (`photo_part`), so the picture
        // can always be made again. A shot is recorded as it is taken, before its picture
        // exists: a part whose picture never came (a crash between shots) is found at the
        // next start. The update trigger is made again with the new columns.
        migrator.registerMigration("v12: pictures of several shots") { db in
            try db.execute(
                sql: """
                    ALTER TABLE photo ADD COLUMN kind TEXT NOT NULL DEFAULT 'photo';
                    ALTER TABLE photo ADD COLUMN layout TEXT;
                    CREATE TABLE photo_part (
                        id TEXT PRIMARY KEY NOT NULL,
                        picture TEXT NOT NULL,
                        position INTEGER NOT NULL,
                        file TEXT NOT NULL UNIQUE,
                        width INTEGER NOT NULL,
                        height INTEGER NOT NULL,
                        byte_count INTEGER NOT NULL,
                        created_at TEXT NOT NULL,
                        camera_make TEXT,
                        camera_model TEXT,
                        UNIQUE (picture, position)
                    );
                    DROP TRIGGER gallery_photo_update;
                    CREATE TRIGGER gallery_photo_update AFTER UPDATE ON photo
                    WHEN old.id IS NOT new.id OR old.number IS NOT new.number OR old.caption IS NOT new.caption
                        OR old.created_at IS NOT new.created_at OR old.thumbnail IS NOT new.thumbnail OR old.width IS NOT new.width
                        OR old.height IS NOT new.height OR old.byte_count IS NOT new.byte_count OR old.file IS NOT new.file
                        OR old.booth IS NOT new.booth OR old.hidden IS NOT new.hidden OR old.camera_make IS NOT new.camera_make
                        OR old.camera_model IS NOT new.camera_model OR old.origin IS NOT new.origin
                        OR old.name_key IS NOT new.name_key OR old.search_text IS NOT new.search_text
                        OR old.favourite IS NOT new.favourite OR old.kind IS NOT new.kind OR old.layout IS NOT new.layout
                    BEGIN
                        UPDATE catalog_state SET gallery_changes = gallery_changes + 1;
                    END;
                    """)
        }
        // The print queue (issue 28): one row per print request, written in the transaction
        // of its reason (the photo's save when every picture is printed, the request itself
        // otherwise), and followed to its end through CUPS. `uuid` is also the CUPS job's
        // `job-uuid`: a booth that stopped between sending a job and recording its number finds
        // the job by it, rather than printing it twice. Its rows are not what guests see: no
        // trigger counts them.
        migrator.registerMigration("v13: print queue") { db in
            try db.execute(
                sql: """
                    CREATE TABLE print_job (
                        number INTEGER PRIMARY KEY AUTOINCREMENT,
                        uuid TEXT NOT NULL UNIQUE,
                        photo_id TEXT NOT NULL,
                        copies INTEGER NOT NULL,
                        reason TEXT NOT NULL,
                        requested_at TEXT NOT NULL,
                        state TEXT NOT NULL,
                        cups_job INTEGER,
                        detail TEXT,
                        pages INTEGER NOT NULL DEFAULT 0,
                        finished_at TEXT,
                        cancel_asked INTEGER NOT NULL DEFAULT 0);
                    CREATE INDEX print_job_open ON print_job(state, number) WHERE state IN ('pending', 'sending', 'printing');
                    CREATE INDEX print_job_photo ON print_job(photo_id);
                    """)
        }
        return migrator
    }

    /// Makes the next start check every photo, before migrations change the catalog: a catalog
    /// of an earlier version may hold what only a full check finds (a crash of a version
    /// without intents, photos without sidecars, values a migration leaves at their default
    /// that the sidecars hold). Committed before the first migration runs, so that a migration
    /// cut short leaves it set. A catalog without `catalog_state` gets it from v9 itself.
    static func noteMigrating(_ db: Database) throws {
        guard try db.tableExists("catalog_state") else { return }
        try db.execute(
            sql: "UPDATE catalog_state SET full_check_due = COALESCE(full_check_due, ?)",
            arguments: ["the catalog was brought up to date from an earlier version"])
    }
}
