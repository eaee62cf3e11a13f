// SPDX-License-Identifier: Apache-2.0
// The context's registries of named things (processors, aggregation strategies, idempotent and
// aggregation repositories, header filter strategies, beans of any type, bean factories):
// bound by the application, looked up by name when routes and endpoints are built, under a
// mutex of their own. And registrations kept aside for a component module's loader.
#include <dromedary/engine/context.h>

#include <map>
#include <mutex>
#include <utility>

#include "engine/context_impl.h"

namespace dromedary {

namespace {

// The context's registries of named things (processors, strategies, repositories), bound and
// looked up under the context's mutex.
template <class T>
using Named = std::map<std::string, std::shared_ptr<T>, std::less<>>;

template <class T>
void bindNamed(std::mutex& mutex, Named<T>& map, std::string name, std::shared_ptr<T> value) {
  std::lock_guard lock(mutex);
  map[std::move(name)] = std::move(value);
}

template <class T>
std::shared_ptr<T> findNamed(std::mutex& mutex, const Named<T>& map, std::string_view name) {
  std::lock_guard lock(mutex);
  auto it = map.find(name);
  return it == map.end() ? nullptr : it->second;
}

// Set while collectRegistrations runs a registration function on this thread.
thread_local const Context* collecting_for = nullptr;
thread_local Context::Registrations* collected = nullptr;

}  // namespace

namespace detail {
Context::Registrations* registrationsKeptAside(const Context& context) noexcept {
  return collecting_for == &context ? collected : nullptr;
}
}  // namespace detail

Context::Registrations Context::collectRegistrations(void (*register_fn)(Context& context)) {
  Registrations out;
  const Context* outer_for = std::exchange(collecting_for, this);
  Registrations* outer = std::exchange(collected, &out);
  struct Restore {
    const Context* for_;
    Registrations* to;
    ~Restore() {
      collecting_for = for_;
      collected = to;
    }
  } restore{outer_for, outer};
  register_fn(*this);
  return out;
}

void Context::bindProcessor(std::string name, std::shared_ptr<Processor> processor) {
  bindNamed(impl_->namedMutex, impl_->processors, std::move(name), std::move(processor));
}

std::shared_ptr<Processor> Context::processorByName(std::string_view name) const {
  return findNamed(impl_->namedMutex, impl_->processors, name);
}

void Context::bindAggregationStrategy(std::string name,
                                      std::shared_ptr<AggregationStrategy> strategy) {
  bindNamed(impl_->namedMutex, impl_->strategies, std::move(name), std::move(strategy));
}

std::shared_ptr<AggregationStrategy> Context::aggregationStrategyByName(
    std::string_view name) const {
  return findNamed(impl_->namedMutex, impl_->strategies, name);
}

void Context::bindIdempotentRepository(std::string name,
                                       std::shared_ptr<IdempotentRepository> repository) {
  bindNamed(impl_->namedMutex, impl_->idempotent, std::move(name), std::move(repository));
}

std::shared_ptr<IdempotentRepository> Context::idempotentRepositoryByName(
    std::string_view name) const {
  return findNamed(impl_->namedMutex, impl_->idempotent, name);
}

void Context::bindAggregationRepository(std::string name,
                                        std::shared_ptr<AggregationRepository> repository) {
  bindNamed(impl_->namedMutex, impl_->aggregationRepositories, std::move(name), std::move(repository));
}

std::shared_ptr<AggregationRepository> Context::aggregationRepositoryByName(
    std::string_view name) const {
  return findNamed(impl_->namedMutex, impl_->aggregationRepositories, name);
}

void Context::bindHeaderFilterStrategy(std::string name,
                                       std::shared_ptr<HeaderFilterStrategy> strategy) {
  bindNamed(impl_->namedMutex, impl_->headerFilters, std::move(name), std::move(strategy));
}

std::shared_ptr<HeaderFilterStrategy> Context::headerFilterStrategyByName(
    std::string_view name) const {
  return findNamed(impl_->namedMutex, impl_->headerFilters, name);
}

void Context::bindBeanOfType(std::string name, TypeId type, std::shared_ptr<void> bean) {
  std::lock_guard lock(impl_->namedMutex);
  impl_->beans[std::move(name)] = {type, std::move(bean)};
}

std::shared_ptr<void> Context::beanOfType(std::string_view name, TypeId type) const {
  std::lock_guard lock(impl_->namedMutex);
  auto it = impl_->beans.find(name);
  if (it == impl_->beans.end() || it->second.first != type) return nullptr;
  return it->second.second;
}

std::vector<std::string> Context::beanNamesOfType(TypeId type) const {
  std::lock_guard lock(impl_->namedMutex);
  std::vector<std::string> out;
  for (const auto& [name, bean] : impl_->beans) {
    if (bean.first == type) out.push_back(name);
  }
  return out;
}

void Context::addBeanFactory(std::string type, BeanFactory factory) {
  if (auto* aside = detail::registrationsKeptAside(*this)) {
    aside->beanFactories.emplace_back(std::move(type), std::move(factory));
    return;
  }
  std::lock_guard lock(impl_->namedMutex);
  impl_->beanFactories[std::move(type)] = std::move(factory);
}

const Context::BeanFactory* Context::beanFactory(std::string_view type) const {
  if (type.starts_with("#class:")) type.remove_prefix(7);
  std::lock_guard lock(impl_->namedMutex);
  auto it = impl_->beanFactories.find(type);
  return it == impl_->beanFactories.end() ? nullptr : &it->second;
}

std::vector<std::string> Context::processorNames() const {
  std::lock_guard lock(impl_->namedMutex);
  std::vector<std::string> out;
  for (const auto& [name, p] : impl_->processors) out.push_back(name);
  return out;
}

}  // namespace dromedary
