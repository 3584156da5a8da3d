package etl

import (
	"context"
	"testing"

	"github.com/etl-provider/terraform-provider-etl/internal/emulator"
)

func TestEmulatorTemplates(t *testing.T) {
	_, c := startEmulator(t, emulator.Options{})
	ctx := context.Background()
	list, err := c.ListTemplates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(emulator.DefaultTemplates()) || list[0].ID != emulator.GLActualsTemplateID || list[0].Name != "GL Actuals" || list[0].ModelName != "Finance Plan" {
		t.Fatalf("templates = %+v", list)
	}
	if list[0].LastRunTime != nil || list[1].LastRunTime == nil || *list[1].LastRunTime != 1700000000000 {
		t.Fatalf("lastRunTime: %v %v", list[0].LastRunTime, list[1].LastRunTime)
	}
	if len(list[0].Steps) != 0 {
		t.Fatalf("list must not carry steps: %+v", list[0].Steps)
	}
	tpl, err := c.GetTemplate(ctx, emulator.GLActualsTemplateID)
	if err != nil {
		t.Fatal(err)
	}
	if len(tpl.Steps) != 1 || tpl.Steps[0].InputID != emulator.GLActualsInputID || tpl.Steps[0].StepName == "" {
		t.Fatalf("steps = %+v", tpl.Steps)
	}
	_, err = c.GetTemplate(ctx, "999")
	if !IsNotFound(err) {
		t.Fatalf("unknown template: %v", err)
	}
}
