import Foundation
import StackDay

let status = StackdayCommand.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
