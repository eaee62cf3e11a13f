// SPDX-License-Identifier: Apache-2.0
#include "engine/variables.h"

#include <dromedary/engine/context.h>
#include <fmt/format.h>

#include <mutex>

#include "engine/context_impl.h"

namespace dromedary::detail {

namespace {

// "ROUTEID:name" in the route store: the name's own route, or the exchange's.
std::string routeKey(const Exchange& exchange, const VariableName& v) {
  std::string key = v.routeId.empty() ? std::string(exchange.routeId()) : v.routeId;
  key += ':';
  key += v.name;
  return key;
}

std::map<std::string, Value, std::less<>>& storeOf(ContextImpl& impl, VariableName::Scope scope) {
  return scope == VariableName::Scope::Global ? impl.globalVariables : impl.routeVariables;
}

// A property's text as Camel 4.8 types a variable's value: digits an integer, true/false a
// boolean, else the text.
Value typedValue(const std::string& text) {
  if (text == "true" || text == "false") return Value(text == "true");
  if (!text.empty() && text.size() < 19 &&
      text.find_first_not_of("0123456789", text[0] == '-' ? 1 : 0) == std::string::npos &&
      text != "-") {
    return Value(static_cast<int64_t>(std::stoll(text)));
  }
  return Value(text);
}

}  // namespace

Result<VariableName> parseVariableName(std::string_view text) {
  VariableName v;
  v.text = std::string(text);
  const size_t colon = text.find(':');
  const std::string_view id =
      colon == std::string_view::npos ? std::string_view() : text.substr(0, colon);
  if (id.empty() || id == "header" || id == "exchange") {
    v.name = std::string(text);  // the exchange's own (header:x.y is one name)
  } else if (id == "global") {
    v.scope = VariableName::Scope::Global;
    v.name = std::string(text.substr(colon + 1));
  } else if (id == "route") {
    v.scope = VariableName::Scope::Route;
    std::string_view rest = text.substr(colon + 1);
    if (size_t c = rest.find(':'); c != std::string_view::npos) {
      v.routeId = std::string(rest.substr(0, c));
      rest = rest.substr(c + 1);
    }
    v.name = std::string(rest);
  } else {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("variable '{}': VariableRepository with id: {} does not exist "
                                 "(global: and route: do)",
                                 text, id));
  }
  if (v.name.empty()) {
    return makeError(ErrorCode::InvalidOption, fmt::format("variable '{}' has no name", text));
  }
  return v;
}

bool readVariable(const Exchange& exchange, const VariableName& v, Value& out) {
  if (v.scope == VariableName::Scope::Exchange) {
    const Value* found = exchange.getVariable(v.name);
    if (!found) return false;
    out = *found;
    return true;
  }
  ContextImpl& impl = exchange.context()->implForEngine();
  const std::string key = v.scope == VariableName::Scope::Route ? routeKey(exchange, v) : v.name;
  std::lock_guard lock(impl.variablesMutex);
  const auto& store = storeOf(impl, v.scope);
  auto it = store.find(key);
  if (it == store.end()) return false;
  out = it->second;
  return true;
}

void writeVariable(Exchange& exchange, const VariableName& v, Value value) {
  if (v.scope == VariableName::Scope::Exchange) {
    exchange.variables().set(v.name, std::move(value));
    return;
  }
  ContextImpl& impl = exchange.context()->implForEngine();
  std::string key = v.scope == VariableName::Scope::Route ? routeKey(exchange, v) : v.name;
  std::lock_guard lock(impl.variablesMutex);
  storeOf(impl, v.scope).insert_or_assign(std::move(key), std::move(value));
}

void eraseVariable(Exchange& exchange, const VariableName& v) {
  if (v.scope == VariableName::Scope::Exchange) {
    if (v.name == "*") {
      exchange.clearVariables();
    } else {
      exchange.removeVariable(v.name);
    }
    return;
  }
  ContextImpl& impl = exchange.context()->implForEngine();
  std::lock_guard lock(impl.variablesMutex);
  auto& store = storeOf(impl, v.scope);
  if (v.name != "*") {
    store.erase(v.scope == VariableName::Scope::Route ? routeKey(exchange, v) : v.name);
  } else if (v.scope == VariableName::Scope::Global) {
    store.clear();
  } else {
    VariableName all = v;
    all.name.clear();
    const std::string prefix = routeKey(exchange, all);  // ROUTEID: and nothing after
    for (auto it = store.lower_bound(prefix); it != store.end() && it->first.starts_with(prefix);) {
      it = store.erase(it);
    }
  }
}

void setVariableFromMessage(Exchange& exchange, const VariableName& v, const Message& message) {
  writeVariable(exchange, v, message.body());
  for (const Headers::Entry& h : message.headers()) {
    VariableName header = v;
    header.name = fmt::format("header:{}.{}", v.name, h.name);
    writeVariable(exchange, header, h.value);
  }
}

namespace {
class FromVariableReceiveStep final : public Step {
 public:
  explicit FromVariableReceiveStep(VariableName name) : name_(std::move(name)) {}
  Status run(Exchange& ex) noexcept override {
    try {
      setVariableFromMessage(ex, name_, ex.message());
      ex.message().body().reset();
    } catch (...) {
      ex.setException(std::current_exception());
      return Status::Fail;
    }
    return Status::Continue;
  }
  bool mayBlock() const noexcept override { return false; }

 private:
  VariableName name_;
};
}  // namespace

Result<std::unique_ptr<Step>> makeFromVariableReceive(Context& context, std::string_view name) {
  DROMEDARY_TRY(resolved, context.resolvePlaceholders(name));
  DROMEDARY_TRY(parsed, parseVariableName(resolved));
  return std::unique_ptr<Step>(new FromVariableReceiveStep(std::move(parsed)));
}

Result<void> applyVariableProperties(Context& context) {
  constexpr std::string_view kPrefix = "camel.variable.";
  for (const auto& [key, raw] : context.properties().withPrefix(kPrefix)) {
    std::string name = key.substr(kPrefix.size());
    DROMEDARY_TRY(text, context.properties().resolve(raw));
    // camel.variable.route.ROUTEID.NAME: a route's (a dot stands for the colon).
    if (name.starts_with("route.") && name.find('.', 6) != std::string::npos) {
      const size_t dot = name.find('.', 6);
      name = "route:" + name.substr(6, dot - 6) + ":" + name.substr(dot + 1);
    } else {
      name = "global:" + name;
    }
    DROMEDARY_TRY_VOID(context.setVariable(name, typedValue(text)));
  }
  return {};
}

}  // namespace dromedary::detail

namespace dromedary {

std::optional<Value> Context::variable(std::string_view name) const {
  auto v = detail::parseVariableName(name);
  if (!v || v->scope == detail::VariableName::Scope::Exchange) {
    // A bare name is a global one here: the context has no exchange of its own.
    if (!v) return std::nullopt;
    v->scope = detail::VariableName::Scope::Global;
  }
  std::string key =
      v->scope == detail::VariableName::Scope::Route ? v->routeId + ":" + v->name : v->name;
  std::lock_guard lock(impl_->variablesMutex);
  const auto& store = v->scope == detail::VariableName::Scope::Global ? impl_->globalVariables
                                                                      : impl_->routeVariables;
  auto it = store.find(key);
  if (it == store.end()) return std::nullopt;
  return it->second;
}

Result<void> Context::setVariable(std::string_view name, Value value) {
  DROMEDARY_TRY(v, detail::parseVariableName(name));
  if (v.scope == detail::VariableName::Scope::Exchange)
    v.scope = detail::VariableName::Scope::Global;
  if (v.scope == detail::VariableName::Scope::Route && v.routeId.empty()) {
    return makeError(ErrorCode::InvalidOption,
                     fmt::format("variable '{}': a route variable set on the context names its "
                                 "route (route:ROUTEID:name)",
                                 name));
  }
  std::string key =
      v.scope == detail::VariableName::Scope::Route ? v.routeId + ":" + v.name : v.name;
  std::lock_guard lock(impl_->variablesMutex);
  auto& store = v.scope == detail::VariableName::Scope::Global ? impl_->globalVariables
                                                               : impl_->routeVariables;
  store.insert_or_assign(std::move(key), std::move(value));
  return {};
}

}  // namespace dromedary
