import { STATUS_ACTION_NAMES, STATUS_ACTIONS } from "@/lib/domain/signups/status";
import { useGuideElements } from "./mdx-elements";

/** The status actions, read from their one table (lib/domain/signups/status.ts). */
export function StatusActionsTable() {
  const { Table, Th, Td, Code } = useGuideElements();
  return (
    <Table>
      <thead>
        <tr>
          <Th>Action</Th>
          <Th>In the dashboard</Th>
          <Th>From</Th>
          <Th>To</Th>
          <Th>Event</Th>
        </tr>
      </thead>
      <tbody>
        {STATUS_ACTION_NAMES.map((action) => {
          const { label, from, to, event } = STATUS_ACTIONS[action];
          return (
            <tr key={action}>
              <Td>
                <Code>{action}</Code>
              </Td>
              <Td>{label}</Td>
              <Td>
                <Code>{from}</Code>
              </Td>
              <Td>
                <Code>{to}</Code>
              </Td>
              <Td>
                <Code>{event}</Code>
              </Td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
