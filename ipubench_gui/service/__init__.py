"""The application's use cases, one function each, called alike by the window
(through its query runner, off the GUI thread) and the command line: they
take the store and immutable values and return values. No Qt here."""
