// SPDX-License-Identifier: Apache-2.0
// Compiling a route's blocks: each step model into its step, with its id and label kept in the
// route's labels, and the blocks its compile made claimed as its children.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "engine/compiled_route.h"
#include "engine/context_impl.h"
#include "engine/intercept.h"
#include "engine/route_model.h"

namespace dromedary {

namespace detail {
Result<void> nameStep(Route& route, Step& step, std::string_view id) {
  if (id.size() > UINT16_MAX) {
    return makeError(ErrorCode::InvalidRoute,
                     fmt::format("the step id '{}...' has {} characters: at most 65535",
                                 id.substr(0, 40), id.size()));
  }
  step.origin.labels = &route.labels;
  step.idAt = static_cast<uint32_t>(route.labels.size());
  step.idSize = static_cast<uint16_t>(id.size());
  route.labels += id;
  return {};
}
}  // namespace detail

Result<const detail::Block*> RouteCompiler::compileBlock(const detail::BlockModel& model) {
  auto block = compileBlock(model, detail::BlockKind::Plain, {});
  if (!block) return block.error();
  return static_cast<const detail::Block*>(*block);
}

Result<detail::Block*> RouteCompiler::compileBlock(const detail::BlockModel& model,
                                                   detail::BlockKind kind,
                                                   std::vector<std::unique_ptr<Step>> trailing) {
  auto block = std::make_unique<detail::Block>();
  detail::Block* raw = block.get();
  raw->kind = kind;
  raw->route = &route_;
  route_.blocks.push_back(std::move(block));
  auto& counters = context_.implForEngine().nodeCounters;
  for (const auto& step_model : model.steps) {
    const size_t blocks_before = route_.blocks.size();
    // A generated id is numbered before the step's children compile, so that numbers go
    // outermost first, in the order the route reads (as Camel numbers them: split1, then
    // the to1 inside it).
    std::string id = step_model->id;
    if (id.empty()) {
      std::string kind_name(step_model->kind());
      id = kind_name + std::to_string(++counters[kind_name]);
      if (route_.model) id.insert(0, route_.model->extras().nodePrefixId);
    }
    if (interception && interceptSteps) {
      // Camel's intercept: its steps run before every step of the route, at any depth.
      std::vector<std::unique_ptr<Step>> before;
      detail::interceptStep(*interception, before);
      for (auto& b : before) {
        (void)detail::nameStep(route_, *b, "intercept");
        raw->steps.push_back(b.get());
        route_.steps.push_back(std::move(b));
      }
    }
    auto step = step_model->compile(*this);
    if (!step) return step.error();
    std::unique_ptr<Step> s = std::move(*step);
    // The blocks its compile made and no inner step claimed are this step's children.
    std::vector<std::string> labels;
    size_t branch = 0;
    for (size_t b = blocks_before; b < route_.blocks.size(); ++b) {
      if (route_.blocks[b]->parent) continue;
      route_.blocks[b]->parent = s.get();
      std::string label = step_model->branchLabel(branch++);
      if (label.empty()) continue;
      labels.resize(branch);
      labels.back() = std::move(label);
    }
    if (!labels.empty()) route_.rareParts().branchLabels.emplace_back(s.get(), std::move(labels));
    const SourceRef& where = step_model->where;
    const std::string label = step_model->describe();
    s->origin.labels = &route_.labels;
    s->origin.where = {where.file, where.line, where.column};
    s->origin.labelAt = static_cast<uint32_t>(route_.labels.size());
    s->origin.labelSize = static_cast<uint32_t>(label.size());
    s->origin.fromModel = 1;
    s->origin.failureAtomic = step_model->failureAtomic();
    route_.labels += label;
    if (auto named = detail::nameStep(route_, *s, id); !named) {
      return error(*step_model, named.error());
    }
    raw->steps.push_back(s.get());
    route_.steps.push_back(std::move(s));
  }
  for (auto& s : trailing) {
    raw->steps.push_back(s.get());
    route_.steps.push_back(std::move(s));
  }
  return raw;
}

Error RouteCompiler::error(const detail::StepModel& step, const Error& cause) const {
  // An error already placed in a route keeps its first, innermost description.
  if (cause.message.find(" (in route '") != std::string::npos) return cause;
  Error e = cause;
  e.message += fmt::format(" (in route '{}', step {})", route_.id, step.describe());
  if (e.where.line == 0 && step.where.line != 0) e.where = step.where;
  return e;
}

}  // namespace dromedary
