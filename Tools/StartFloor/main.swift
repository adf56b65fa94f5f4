// The least a `task add` can do on Tidings' stack: a statically linked Swift program that opens
// the database with GRDB, on one connection set up as Tidings sets up its own (WAL kept, no
// checkpoint at close, `synchronous = NORMAL`), inserts one task in one transaction, prints
// its id and exits. No Tidings library, no configuration, no undo record, no argument parser.
//
// `Benchmarks/process-bench.sh` times it beside `tidings task add` and taskwarrior's
// `task add`: the floor of the start-up goal for any design built on GRDB. Built by
// `make start-floor` with the release binary's flags.
//
//     StartFloor DATABASE NAME
import CSQLiteShims
import Foundation
import GRDB
import GRDBSQLite

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: StartFloor DATABASE NAME\n".utf8))
    exit(2)
}
var configuration = Configuration()
configuration.foreignKeysEnabled = true
configuration.busyMode = .timeout(5)
configuration.prepareDatabase { db in
    try db.execute(sql: "PRAGMA synchronous = NORMAL")
    var persist: Int32 = 1
    _ = sqlite3_file_control(db.sqliteConnection, nil, SQLITE_FCNTL_PERSIST_WAL, &persist)
    _ = tidings_skip_checkpoint_on_close(db.sqliteConnection)
}
do {
    let queue = try DatabaseQueue(path: arguments[1], configuration: configuration)
    let id = try queue.write { db -> Int64 in
        let now = Date().timeIntervalSince1970
        try db.execute(
            sql: "INSERT INTO task (name, createdAt, modifiedAt) VALUES (?, ?, ?)",
            arguments: [arguments[2], now, now])
        return db.lastInsertedRowID
    }
    print("added task #\(id) \"\(arguments[2])\"")
} catch {
    FileHandle.standardError.write(Data("StartFloor: \(error)\n".utf8))
    exit(1)
}
