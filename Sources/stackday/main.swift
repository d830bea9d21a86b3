import Foundation

exit(Stackday.main(Array(CommandLine.arguments.dropFirst())))
