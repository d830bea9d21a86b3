/// The six report lines seed 000 prints for its sample data, byte for byte.
public enum SeedReport {
    public static let korean = """
    주간 보고서: 10/05(월) ~ 10/11(일)
    요일: 월 화 수 목 금 토 일
    물 마시기 | ● ● ● ● ● ● ○ | 합계 54잔 | 달성 6/7일 | 연속 7일 (최장 7일)
    운동 | ○ ● ● ○ ● ● ● | 합계 165분 | 달성 5/7일 | 연속 3일 (최장 3일)
    독서 | ○ ○ ● ● ○ ● ● | 합계 97쪽 | 달성 4/7일 | 연속 2일 (최장 3일)
    가장 꾸준한 습관: 물 마시기 (6/7일)
    """
}
