// The Chores module's public API speaks Models' values: an app that depends on Chores alone names them
// without a second import.
@_exported public import Models
