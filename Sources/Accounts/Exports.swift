// The Accounts module's public API speaks Models' values (an account's items become Articles): an app that
// depends on Accounts names them without a second import.
@_exported public import Models
