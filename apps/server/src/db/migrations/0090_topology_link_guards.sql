-- The links a topology run records between components and checks, and the team owners its spec names, come back on its
-- next run; as with the catalog's links (0081), a person may add, change or remove only the ones made by hand.
create trigger check_component_relationships_guard_manual
  before insert or update or delete on check_component_relationships
  for each row execute function guard_manual_links();

create trigger team_components_guard_manual
  before insert or update or delete on team_components
  for each row execute function guard_manual_links();
