// SPDX-License-Identifier: Apache-2.0
#pragma once

// Beans in XML route files: Camel's own `<bean name type>` (inside `<camel>`) and Spring's
// `<bean id class>` (inside `<beans>`), read into the BeanSources a YAML `beans:` gives, and
// Spring's property-placeholder locations.

#include <vector>

#include <pugixml.hpp>

#include "dsl/file_source.h"
#include "dsl/xml/xml_places.h"

namespace dromedary::dsl {

/// <bean name="x" type="..."><properties><property key="url" value="..."/></properties></bean>.
/// Constructors, a script, a factory or a builder need Java: an error at their element.
Result<BeanSource> camelXmlBean(const pugi::xml_node& node, const XmlPlaces& places);

/// <bean id="ds" class="..."><property name="url" value="..."/> (or ref="other", as "#other")
/// </bean>, with Spring's `${key}` placeholders in values made Camel's `{{key}}`.
BeanSource springXmlBean(const pugi::xml_node& node, const XmlPlaces& places);

/// Each location of <context:property-placeholder location="classpath:a.properties,file:b">.
void propertyLocations(const pugi::xml_node& node, const XmlPlaces& places,
                       std::vector<Scalar>& out);

/// Spring's placeholders, `${key}` and `${key:default}`, as Camel's `{{key}}` and
/// `{{key:default}}`: resolved against the same properties.
std::string springPlaceholders(std::string_view value);

}  // namespace dromedary::dsl
