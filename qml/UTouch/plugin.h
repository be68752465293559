/*
 * UTouch QML module: the plugin that registers the types of `import UTouch`
 * (version 1.0): GestureArea, Subscription, and Gesture (not creatable;
 * its enums name the gesture classes).
 */
#ifndef UTOUCH_QML_PLUGIN_H
#define UTOUCH_QML_PLUGIN_H

#include <QQmlEngineExtensionPlugin>

class UTouchQmlPlugin : public QQmlExtensionPlugin
{
	Q_OBJECT
	Q_PLUGIN_METADATA(IID QQmlExtensionInterface_iid)

public:
	/** Register the module's types under @p uri ("UTouch"). */
	void registerTypes(const char *uri) override;
};

#endif
