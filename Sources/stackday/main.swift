import Foundation

import StackDayLua

let arguments = Array(CommandLine.arguments.dropFirst())
// A server's policy runner (docs/server.md): before anything else, holding nothing it need not.
if arguments.first == PolicyRunner.command { exit(PolicyRunner.main(Array(arguments.dropFirst()))) }
exit(Stackday.main(arguments))
