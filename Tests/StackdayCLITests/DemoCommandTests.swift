import Foundation
import Testing
import StackDayTestSupport

let stackday = Subprocess(product: "stackday")

func runStackday(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> Subprocess.Result {
    try stackday.run(arguments, environment: environment, input: input)
}

@Suite("stackday demo")
struct DemoCommandTests {
    @Test("prints seed 000's sample report")
    func demo() throws {
        let result = try runStackday(["demo"])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout.hasSuffix("""
        주간 보고서: 10/05(월) ~ 10/11(일)
        요일: 월 화 수 목 금 토 일
        물 마시기 | ● ● ● ● ● ● ○ | 합계 54잔 | 달성 6/7일 | 연속 7일 (최장 7일)
        운동 | ○ ● ● ○ ● ● ● | 합계 165분 | 달성 5/7일 | 연속 3일 (최장 3일)
        독서 | ○ ○ ● ● ○ ● ● | 합계 97쪽 | 달성 4/7일 | 연속 2일 (최장 3일)
        가장 꾸준한 습관: 물 마시기 (6/7일)

        """))
    }

    @Test("an unknown command is a usage error")
    func unknownCommand() throws {
        let result = try runStackday(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: unknown command 'frobnicate'"))
        #expect(result.stdout == "")
    }
}
