import StackDay

/// A failure's message in a language. English is each error's own description; Korean covers
/// the failures a person meets while tracking (a name mistyped, a day in the future, a second
/// record of a done/not-done habit, …) and falls back to English for the rest. JSON answers
/// keep the English message beside the stable code.
public enum ErrorText {
    public static func message(_ error: any Error, _ language: ReportLanguage) -> String {
        if language == .korean, let text = korean(error) { return text }
        switch error {
        case let error as CustomStringConvertible: return error.description
        default: return error.localizedDescription
        }
    }

    /// The Korean message, nil where there is none. Values come after a colon, so that no
    /// particle has to agree with a name.
    public static func korean(_ error: any Error) -> String? {
        switch error {
        case let error as UseCaseError:
            switch error {
            case .habitNotFound(let name, let suggestion): return "없는 습관입니다: '\(name)'" + DidYouMean.koreanHint(suggestion)
            case .duplicateName(let name): return "이미 있는 습관 이름입니다: '\(name)'"
            case .futureDay(let day, let today): return "미래의 날짜입니다: \(day) (오늘: \(today))"
            case .futureInstant(let instant): return "미래의 시각입니다: \(instant)"
            case .beforeStart(let day, let habit, let startedOn): return "습관 '\(habit)'의 시작일(\(startedOn)) 전입니다: \(day)"
            case .afterArchive(let day, let habit, let archivedOn): return "습관 '\(habit)'의 보관일(\(archivedOn)) 뒤입니다: \(day)"
            case .alreadyCompleted(let habit, let day):
                return "이미 기록한 날입니다: '\(habit)', \(day) (했다/안 했다 습관이라 두 번째 기록은 세지 않습니다)"
            case .nothingToUndo(let habit, let day): return "되돌릴 기록이 없습니다: '\(habit)', \(day)"
            case .nothingToUnskip(let habit, let days):
                return "건너뛴 날이 없습니다: '\(habit)', " + (days.count == 1 ? "\(days.first)" : "\(days.first) … \(days.last)")
            case .alreadyArchived(let habit, let archivedOn): return "이미 보관한 습관입니다: '\(habit)' (\(archivedOn))"
            case .notArchived(let habit): return "보관하지 않은 습관입니다: '\(habit)'"
            case .cannotMoveBeforeItself(let habit): return "습관을 자기 앞으로 옮길 수는 없습니다: '\(habit)' (다른 습관을 고르세요)"
            case .invalidRange(let from, let to): return "시작일이 마지막 날보다 늦습니다: \(from) > \(to)"
            case .policyNotFound(let name, let suggestion):
                return "없는 정책입니다: \(name)" + DidYouMean.koreanHint(suggestion) + " (설치한 스크립트, 정책 폴더, 받은 스크립트, 기본 정책 어디에도 없습니다)"
            default: return nil
            }
        case let error as HabitValidationError:
            switch error {
            case .emptyName: return "습관 이름은 비워 둘 수 없습니다"
            case .invalidAmount(let amount): return "양은 0.001 이상, 소수 셋째 자리까지의 유한한 수여야 합니다 (입력: \(Quantity.describe(amount)))"
            case .invalidGoal(let goal): return "목표는 0.001 이상, 소수 셋째 자리까지의 유한한 수여야 합니다 (입력: \(Quantity.describe(goal)))"
            case .noteTooLong(let length, let limit): return "메모는 \(limit)자까지 쓸 수 있습니다 (이 메모: \(length)자)"
            case .invalidStep(let step): return "한 번에 더할 양은 0.001 이상, 소수 셋째 자리까지의 유한한 수여야 합니다 (입력: \(Quantity.describe(step)))"
            default: return nil
            }
        case let failure as HabitFailure:
            return korean(failure.underlying)
        case let error as SchedulePhraseError:
            if let reason = error.reason { return "일정 '\(error.phrase)'을(를) 쓸 수 없습니다: \(reason)" }
            let closest = error.suggestions.isEmpty ? "" : " 혹시 " + error.suggestions.map { "'\($0)'" }.joined(separator: " 또는 ") + "인가요?"
            return "'\(error.phrase)'은(는) 알아들을 수 없는 일정입니다.\(closest) (예: 3 times a week, mon wed fri, last friday of the month, 또는 캘린더의 RRULE)"
        default:
            return nil
        }
    }
}
