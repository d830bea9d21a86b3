import StackDay
import StackDayApplication

extension Invocation {
    /// The options, flags and arguments `declarations` name, as the application's `RequestFields`:
    /// `--schedule-params` under `scheduleParams`, an argument `<amount>` under `amount`. Messages
    /// name each as it was typed.
    func fields(_ declarations: [FieldDeclaration]) -> RequestFields {
        var values: [String: RequestFields.Value] = [:]
        var labels: [String: String] = [:]
        for declaration in declarations {
            let key = declaration.key, name = declaration.optionName
            switch declaration.commandLine {
            case .option, .repeatable:
                guard let value = options[name] else { continue }
                // A repeatable option given several times (`--remind 08:00 --remind 21:00`): every value, in order.
                let all = repeatable.contains(name) ? optionLists[name] ?? [value] : [value]
                values[key] = all.count > 1 ? .json(.array(all.map(JSONValue.string))) : .text(value)
            case .flag:
                guard flags.contains(name) else { continue }
                values[key] = .json(.bool(true))
            case .argument(let argument, _, let variadic):
                guard let value = arguments[argument] else { continue }
                values[key] = variadic ? .json(.array((argumentLists[argument] ?? [value]).map(JSONValue.string))) : .text(value)
            case .none:
                continue
            }
            labels[key] = declaration.commandLineLabel
        }
        return RequestFields(values: values, labels: labels)
    }

    /// The request `R` from what was typed: the one decoding step of every command.
    func request<R: RequestType>(_ type: R.Type = R.self) throws -> R {
        try fields(R.fields).decode(R.self)
    }

    /// The value of one field the command declares (an option of the command line's own, or the
    /// habit argument); nil when not given.
    subscript<Value>(field: RequestField<Value>) -> Value? {
        get throws { try fields([field.declaration])[field] }
    }

    /// The value of a required argument (the parser already checked it is present).
    func required<Value>(_ field: RequestField<Value>) throws -> Value {
        try fields([field.declaration]).required(field)
    }
}

extension CommandSpec {
    /// The command taking `declarations` too: the arguments after its own, then the options.
    func taking(_ declarations: [FieldDeclaration]) -> CommandSpec {
        var spec = self
        for declaration in declarations {
            switch declaration.commandLine {
            case .option(let valueName):
                spec.options.append(OptionSpec(name: declaration.optionName, valueName: valueName, help: declaration.help))
            case .repeatable(let valueName):
                spec.options.append(OptionSpec(name: declaration.optionName, valueName: valueName, help: declaration.help, repeatable: true))
            case .flag:
                spec.options.append(OptionSpec(name: declaration.optionName, valueName: nil, help: declaration.help))
            case .argument(let name, let optional, let variadic):
                spec.arguments.append(ArgumentSpec(name: name, help: declaration.help, isOptional: optional, isVariadic: variadic))
            case .none:
                continue
            }
        }
        return spec
    }
}
