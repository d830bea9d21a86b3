/// Shell completion scripts made from the command tree (`Stackday.root`) and the global options,
/// so that they list every subcommand and option there is and can never go stale.
///
/// Habit and policy names are completed by calling back into `stackday` (`--complete habits` and
/// `--complete policies`, one name a line), with the `--db`, `--database` and `--user` already typed;
/// a name with a space or other shell syntax is put on the line quoted. An option's value completes
/// by what its value is (`ValueKind`): the words of `auto|always|never`, file or folder names, or
/// policy names.
enum CompletionScript {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    static func script(for shell: Shell, root: CommandSpec) -> String {
        switch shell {
        case .bash: bash(root)
        case .zsh: "#compdef stackday\n# zsh completion for stackday, through bash's completion functions.\nautoload -U +X bashcompinit && bashcompinit\n" + bash(root)
        case .fish: fish(root)
        }
    }

    /// Every command path with its spec: "" for the root, "habit add" for a subcommand.
    static func paths(_ spec: CommandSpec, prefix: [String] = []) -> [([String], CommandSpec)] {
        [(prefix, spec)] + spec.subcommands.flatMap { paths($0, prefix: prefix + [$0.name]) }
    }

    /// What an option's value completes to.
    enum ValueKind: Equatable {
        case words([String]), files, folders, policies
    }

    /// The kind of `option`'s value, from how its help names it (`<auto|always|never>`, `<file>`,
    /// `<dir>`, `<policy>`); nil for a value nothing can suggest (a number, a day, JSON).
    static func valueKind(_ option: OptionSpec) -> ValueKind? {
        guard let value = option.valueName else { return nil }
        if value.contains("|") { return .words(value.split(separator: "|").map(String.init)) }
        switch value {
        case "file", "path": return .files
        case "dir", "folder": return .folders
        case "policy": return .policies
        default: return nil
        }
    }

    /// What the first argument of a command names, for completion by name.
    static func names(for spec: CommandSpec, path: [String]) -> String? {
        guard let first = spec.arguments.first else { return nil }
        if ["path", "file"].contains(first.name) { return "files" }
        if path.first == "policy", ["name", "policy"].contains(first.name) { return "policies" }
        if path.first == "user" { return nil }
        return ["name", "habit"].contains(first.name) ? "habits" : nil
    }

    private static func bash(_ root: CommandSpec) -> String {
        let globals = GlobalOptions.specs.map { "--" + $0.name }
        var cases = ""
        for (path, spec) in paths(root) {
            // Global options are taken anywhere on the line.
            let words = spec.subcommands.map(\.name) + spec.options.map { "--" + $0.name } + globals + (path.isEmpty ? ["--help", "--version"] : ["--help"])
            cases += "        '\(path.joined(separator: " "))') words='\(words.joined(separator: " "))'; names='\(names(for: spec, path: path) ?? "")' ;;\n"
        }
        let valued = (GlobalOptions.specs + paths(root).flatMap { $0.1.options }).filter { !$0.isFlag }.map { "--" + $0.name }
        // An option's value: each command's own options first, then the global ones anywhere.
        var valueCases = ""
        func valueCase(_ pattern: String, _ kind: ValueKind) {
            let action: String
            switch kind {
            case .words(let words): action = "COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- \"$cur\")); return"
            case .files: action = "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\")); return"
            case .folders: action = "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\")); return"
            case .policies: action = "names=policies; expect_value=''"
            }
            valueCases += "            \(pattern)) \(action) ;;\n"
        }
        for (path, spec) in paths(root) where !path.isEmpty {
            for option in spec.options { if let kind = valueKind(option) { valueCase("'\(path.joined(separator: " ")) --\(option.name)'", kind) } }
        }
        for option in GlobalOptions.specs { if let kind = valueKind(option) { valueCase("*' --\(option.name)'", kind) } }
        return """
        # bash completion for stackday (made by `stackday --generate-completion-script bash`).
        _stackday() {
            local cur=${COMP_WORDS[COMP_CWORD]} path='' store=() i word expect_value=''
            local known_paths=' \(paths(root).map { $0.0.joined(separator: "/") }.filter { !$0.isEmpty }.joined(separator: " ")) '
            for ((i = 1; i < COMP_CWORD; i++)); do
                word=${COMP_WORDS[i]}
                if [[ -n $expect_value ]]; then
                    case $expect_value in --db|--database|--user) store+=("$expect_value" "$word") ;; esac
                    expect_value=''
                    continue
                fi
                case $word in
                    \(valued.joined(separator: "|"))) expect_value=$word ;;
                    -*) ;;
                    *) local next=${path:+$path/}$word
                       [[ $known_paths == *" $next "* ]] && path=$next ;;
                esac
            done
            local words names
            case ${path//\\// } in
        \(cases)        *) words='' ; names='' ;;
            esac
            if [[ -n $expect_value ]]; then
                case "${path//\\// } $expect_value" in
        \(valueCases)            *) return ;;
                esac
            fi
            if [[ $names == files && $cur != -* ]]; then
                compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return
            fi
            if [[ $cur != -* && -n $names && -z $expect_value ]]; then
                local IFS=$'\\n' typed=${cur//\\\\ / } k
                COMPREPLY=($(compgen -W "$(stackday "${store[@]}" --complete "$names" 2>/dev/null)" -- "$typed"))
                # A name is one word on the line: `물 마시기` goes in as `물\\ 마시기`.
                for k in "${!COMPREPLY[@]}"; do printf -v 'COMPREPLY[k]' '%q' "${COMPREPLY[k]}"; done
                [[ ${#COMPREPLY[@]} -gt 0 ]] && return
            fi
            [[ -n $expect_value ]] && return
            COMPREPLY=($(compgen -W "$words" -- "$cur"))
        }
        complete -F _stackday stackday

        """
    }

    private static func fish(_ root: CommandSpec) -> String {
        var lines = ["# fish completion for stackday (made by `stackday --generate-completion-script fish`).", "complete -c stackday -f"]
        for option in GlobalOptions.specs {
            lines.append("complete -c stackday -l \(option.name)\(fishValues(option)) -d '\(quoted(option.help))'")
        }
        for (path, spec) in paths(root) {
            let condition = path.isEmpty ? "__fish_use_subcommand" : "__fish_seen_subcommand_from \(path.last ?? "")"
            for sub in spec.subcommands {
                lines.append("complete -c stackday -n '\(condition)' -a \(sub.name) -d '\(quoted(sub.abstract))'")
            }
            for option in spec.options {
                lines.append("complete -c stackday -n '\(condition)' -l \(option.name)\(fishValues(option)) -d '\(quoted(option.help))'")
            }
            if let names = names(for: spec, path: path), !path.isEmpty {
                lines.append(names == "files" ? "complete -c stackday -n '\(condition)' -F"
                                              : "complete -c stackday -n '\(condition)' -a '(stackday --complete \(names) 2>/dev/null)'")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// fish's flags for an option's value: `-r` and what it completes to (`-F` for files).
    private static func fishValues(_ option: OptionSpec) -> String {
        guard !option.isFlag else { return "" }
        switch valueKind(option) {
        case .words(let words)?: return " -x -a '\(words.joined(separator: " "))'"
        case .files?: return " -r -F"
        case .folders?: return " -x -a '(__fish_complete_directories)'"
        case .policies?: return " -x -a '(stackday --complete policies 2>/dev/null)'"
        case nil: return " -r"
        }
    }

    private static func quoted(_ text: String) -> String { text.replacingOccurrences(of: "'", with: "\\'") }
}
